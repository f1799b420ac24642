package dev.jobweaver.bench;

import dev.jobweaver.bench.chaos.ChaosCommand;
import dev.jobweaver.local.CommandPlugin;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;

/**
 * Adds {@code bench} ({@link BenchCommand}), with its {@code compare} ({@link CompareCommand}), and {@code chaos}
 * ({@link ChaosCommand}) to the launcher's command line.
 */
public final class BenchCommands implements CommandPlugin {

    @Override
    public List<Object> commands(Path cwd, PrintStream out) {
        CommandLine bench = new CommandLine(new BenchCommand(cwd, out)).addSubcommand(new CompareCommand(cwd, out));
        return List.of(bench, new ChaosCommand(out));
    }
}
