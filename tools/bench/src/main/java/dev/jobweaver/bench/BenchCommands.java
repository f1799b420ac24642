package dev.jobweaver.bench;

import dev.jobweaver.bench.chaos.ChaosCommand;
import dev.jobweaver.local.CommandPlugin;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** Adds {@code bench} ({@link BenchCommand}) and {@code chaos} ({@link ChaosCommand}) to the launcher's command line. */
public final class BenchCommands implements CommandPlugin {

    @Override
    public List<Object> commands(Path cwd, PrintStream out) {
        return List.of(new BenchCommand(cwd, out), new ChaosCommand(out));
    }
}
