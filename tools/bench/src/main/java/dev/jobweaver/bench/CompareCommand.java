package dev.jobweaver.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.local.Cli;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jobweaver bench compare DIR...}: the figures of bench runs side by side ({@link Comparison}), read from the
 * {@code summary.json} each run wrote. Measures nothing, so no platform need be up.
 */
// The launcher lays out the help of its own commands only; a subcommand of bench states the same headings itself.
@Command(name = "compare", sortOptions = false, customSynopsis = "jobweaver bench compare [OPTIONS] DIR...",
        headerHeading = "%n", synopsisHeading = "%nUsage: ", descriptionHeading = "%n", parameterListHeading = "%n",
        optionListHeading = "%nOptions:%n", footerHeading = "%n",
        header = "Put bench runs side by side, e.g. the same workloads on the JVM and as native executables.",
        description = "Reads summary.json in each folder and prints a table of the platforms (runtime, machine, "
                + "options, ready time and RSS at the start per service), one per workload (throughput, CPU per "
                + "job, RSS, latency percentiles, correctness and the workload's own figures) and one of the "
                + "targets' verdicts, one column per run in the order given. A figure a run lacks shows as -.",
        footer = "Exit status: 0 when every folder was read; 2 when none is named, or a folder does not exist, holds "
                + "no summary.json or one of a format version this bench does not read.")
final class CompareCommand implements Callable<Integer> {

    @Mixin
    Cli.HelpOption help;

    @Spec
    CommandSpec spec;

    // 0..*, checked in call(): picocli's "Missing required parameter" would not say what a DIR is
    @Parameters(paramLabel = "DIR", arity = "0..*",
            description = "A folder a bench run wrote its figures to (HOME/bench/<UTC time of the run>, or its "
                    + "--out).")
    List<Path> folders = new ArrayList<>();

    private final Path cwd;
    private final PrintStream console;

    /**
     * @param cwd what relative folders resolve against
     * @param console where the tables go
     */
    CompareCommand(Path cwd, PrintStream console) {
        this.cwd = cwd;
        this.console = console;
    }

    @Override
    public Integer call() {
        if (folders.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "no run folder named: name one or more folders bench "
                    + "wrote, e.g. .jobweaver/bench/20261129-224200");
        }
        ObjectMapper json = new ObjectMapper();
        List<RunSummary> runs = folders.stream().map(f -> RunSummary.load(cwd.resolve(f).normalize(), json)).toList();
        console.print(Comparison.render(runs));
        console.flush();
        return 0;
    }
}
