package dev.jobweaver.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Stops the platform's child processes in order if the launcher dies without stopping them (SIGKILL, a crash), so
 * that no broker, server or service outlives it and holds its ports.
 *
 * <h2>Why</h2>
 * The children run in sessions of their own ({@link #detached}), so that a terminal's Ctrl-C or a SIGTERM to the
 * launcher's process group reaches the launcher alone, and the launcher stops the services before Kafka and
 * PostgreSQL: a service that loses its broker first cannot leave its consumer group, and its successor waits for it
 * to time out. The price of their own sessions is that nothing ends them when the launcher is killed; this reaper does.
 *
 * <h2>How</h2>
 * A small shell process in its own session watches the launcher's pid. Each child is registered as a pid file in the
 * run folder, named {@code <rank>-<name>.pid}; when the launcher is gone, the reaper sends each rank its signal, waits
 * for that rank to exit (killing what is left after its grace), then goes to the next: rank 1 the services (SIGTERM,
 * 40 s), rank 2 Kafka and the trace viewer (SIGTERM, 30 s), rank 3 PostgreSQL (SIGINT, its fast shutdown, 30 s).
 * A launcher that stops its children itself removes their pid files and then the reaper, which then has nothing to do.
 *
 * <h2>Where it does nothing</h2>
 * Without {@code setsid} (a machine without util-linux) the children stay in the launcher's process group, as before.
 */
public final class Reaper implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Reaper.class);
    private static final Path[] SETSID = {Path.of("/usr/bin/setsid"), Path.of("/bin/setsid")};

    /** The services: stopped first. */
    public static final int SERVICES = 1;
    /** Kafka and the trace viewer: stopped once the services are gone. */
    public static final int BROKERS = 2;
    /** PostgreSQL: stopped last. */
    public static final int DATABASE = 3;

    /*
     * A process is known by its pid and its start time (/proc/<pid>/stat, field 22, in clock ticks since boot): pids
     * are reused, and on a machine whose pid_max is 32768, with threads taking numbers from the same counter, a pid can
     * name another process within seconds. "kill -0" alone once kept the reaper waiting on a reused launcher pid, and
     * would have sent SIGKILL to whatever process took a dead child's pid.
     */
    static final String SCRIPT = """
            launcher=$1; run=$2
            started() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
            since=$(started "$launcher")
            while [ -n "$since" ] && [ "$(started "$launcher")" = "$since" ]; do sleep 0.5; done
            stop_rank() {
              rank=$1; signal=$2; grace=$3; pids=""
              for f in "$run/$rank"-*.pid; do
                [ -f "$f" ] || continue
                p=$(cat "$f" 2>/dev/null); s=$(started "$p")
                [ -n "$p" ] && [ -n "$s" ] && kill -"$signal" "$p" 2>/dev/null && pids="$pids $p:$s"
                rm -f "$f"
              done
              waited=0
              while [ "$waited" -lt "$((grace * 2))" ]; do
                alive=""
                for e in $pids; do [ "$(started "${e%%:*}")" = "${e#*:}" ] && alive="$alive $e"; done
                [ -z "$alive" ] && return
                pids=$alive
                sleep 0.5; waited=$((waited + 1))
              done
              for e in $pids; do [ "$(started "${e%%:*}")" = "${e#*:}" ] && kill -KILL "${e%%:*}" 2>/dev/null; done
            }
            stop_rank 1 TERM 40
            stop_rank 2 TERM 30
            stop_rank 3 INT 30
            """;

    private final Path runDir;
    private final Process process;

    private Reaper(Path runDir, Process process) {
        this.runDir = runDir;
        this.process = process;
    }

    /** Starts a reaper for this JVM, with its pid files in {@code runDir}; pid files left there by a killed run go. */
    public static Reaper start(Path runDir) {
        return start(runDir, ProcessHandle.current().pid());
    }

    /** Starts a reaper that watches process {@code launcher}. */
    static Reaper start(Path runDir, long launcher) {
        try {
            Files.createDirectories(runDir);
            try (Stream<Path> stale = Files.list(runDir)) {
                for (Path file : stale.filter(f -> f.toString().endsWith(".pid")).toList()) {
                    Files.deleteIfExists(file);
                }
            }
            List<String> command = detached(List.of("sh", "-c", SCRIPT, "jobweaver-reaper",
                    Long.toString(launcher), runDir.toString()));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return new Reaper(runDir, process);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the process reaper in " + runDir, e);
        }
    }

    /** {@code command} in a session of its own ({@code setsid}), where the machine has it; unchanged otherwise. */
    public static List<String> detached(List<String> command) {
        for (Path setsid : SETSID) {
            if (Files.isExecutable(setsid)) {
                List<String> all = new ArrayList<>(command.size() + 1);
                all.add(setsid.toString());
                all.addAll(command);
                return all;
            }
        }
        return command;
    }

    /** Registers a child of {@code rank}; its pid file is replaced if the name is registered already. */
    public void register(int rank, String name, long pid) {
        try {
            Files.writeString(pidFile(rank, name), Long.toString(pid));
        } catch (IOException e) {
            LOG.warnf("could not register %s (pid %d) with the reaper: %s", name, pid, e.getMessage());
        }
    }

    /** Forgets a child that was stopped (or is about to be) by the launcher. */
    public void unregister(int rank, String name) {
        try {
            Files.deleteIfExists(pidFile(rank, name));
        } catch (IOException e) {
            LOG.debugf("could not remove the pid file of %s: %s", name, e.getMessage());
        }
    }

    /** The reaper's own process (for tests). */
    Process process() {
        return process;
    }

    private Path pidFile(int rank, String name) {
        return runDir.resolve(rank + "-" + name.replaceAll("[^A-Za-z0-9_.-]", "_") + ".pid");
    }

    /** Ends the reaper: the launcher has stopped (or is stopping) its children itself. */
    @Override
    public void close() {
        process.destroy();
    }
}
