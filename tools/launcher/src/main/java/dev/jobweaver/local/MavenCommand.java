package dev.jobweaver.local;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Unmatched;

/**
 * What {@code build} and {@code test} share: both run Maven in the repository, and pass on to it every argument they
 * do not know themselves (e.g. {@code -o}).
 */
abstract class MavenCommand implements Callable<Integer> {

    @Mixin
    Cli.HelpOption help;

    @Mixin
    Cli.RootOption repository;

    @Unmatched
    List<String> maven = new ArrayList<>();

    /** Where the command's own lines go (Maven prints to the console itself). */
    final PrintStream out;

    MavenCommand(PrintStream out) {
        this.out = out;
    }
}
