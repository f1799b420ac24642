package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReaperTest {

    @TempDir
    Path dir;

    private final List<Process> started = new java.util.ArrayList<>();

    @AfterEach
    void cleanUp() {
        started.forEach(Process::destroyForcibly);
    }

    /** A child that writes its rank to the order file when signalled, then exits. */
    private Process child(int rank) throws Exception {
        Path ready = dir.resolve("ready-" + rank + "-" + System.nanoTime());
        String script = "trap 'echo " + rank + " >> " + dir.resolve("order") + "; exit 0' TERM INT; "
                + ": > " + ready + "; while :; do sleep 0.1; done";
        // With default dispositions: a build started as a background job inherits SIGINT ignored, and sh cannot trap
        // a signal that was ignored on entry, so the database's SIGINT would never reach the trap.
        Process child = started(new ProcessBuilder(Reaper.detached(List.of("env", "--default-signal=INT,TERM", "sh",
                "-c", script))).start());
        // its trap is set once it wrote the file: a signal before that would end it without a line in the order
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!Files.exists(ready)) {
            assertThat(System.nanoTime()).as("child %d set its trap within 20 s", rank).isLessThan(deadline);
            Thread.sleep(10);
        }
        return child;
    }

    /** {@code process}, stopped after the test. */
    private Process started(Process process) {
        started.add(process);
        return process;
    }

    /** A reaper watching {@code launcher} (a stand-in that lives until the test kills it), stopped after the test. */
    private Reaper reaperOf(Process launcher) {
        Reaper reaper = Reaper.start(dir.resolve("run"), launcher.pid());
        started(reaper.process());
        return reaper;
    }

    @Test
    void whenTheLauncherDiesItsChildrenAreStoppedServicesFirstDatabaseLast() throws Exception {
        Process launcher = started(new ProcessBuilder("sleep", "600").start());
        Reaper reaper = reaperOf(launcher);
        Process database = child(Reaper.DATABASE);
        Process broker = child(Reaper.BROKERS);
        Process service = child(Reaper.SERVICES);
        reaper.register(Reaper.DATABASE, "postgres", database.pid());
        reaper.register(Reaper.BROKERS, "kafka", broker.pid());
        reaper.register(Reaper.SERVICES, "worker-service", service.pid());
        // while the launcher lives (the same pid and start time) the reaper only watches
        Thread.sleep(1_500);
        assertThat(List.of(service, broker, database)).as("children while the launcher lives").allMatch(Process::isAlive);

        launcher.destroyForcibly().waitFor();

        for (Process p : List.of(service, broker, database)) {
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("child %d stopped", p.pid()).isTrue();
        }
        assertThat(Files.readAllLines(dir.resolve("order"))).containsExactly("1", "2", "3");
        // a child may exit between the reaper's signal and its removal of the pid file: the reaper's end is the mark
        assertThat(reaper.process().waitFor(10, TimeUnit.SECONDS)).as("the reaper ends").isTrue();
        assertThat(dir.resolve("run")).isEmptyDirectory();
    }

    @Test
    void aChildTheLauncherStoppedItselfIsLeftAlone() throws Exception {
        Process launcher = started(new ProcessBuilder("sleep", "600").start());
        Reaper reaper = reaperOf(launcher);
        Process unregistered = child(Reaper.SERVICES);
        reaper.register(Reaper.SERVICES, "api-service", unregistered.pid());
        reaper.unregister(Reaper.SERVICES, "api-service");

        launcher.destroyForcibly().waitFor();

        assertThat(reaper.process().waitFor(10, TimeUnit.SECONDS)).as("the reaper ends").isTrue();
        assertThat(unregistered.isAlive()).isTrue();
    }

    @Test
    void detachedChildrenRunInASessionOfTheirOwn() throws Exception {
        Process child = child(Reaper.SERVICES);
        long mine = sessionOf(ProcessHandle.current().pid());
        assertThat(sessionOf(child.pid())).isEqualTo(child.pid()).isNotEqualTo(mine);
    }

    private static long sessionOf(long pid) throws Exception {
        // field 6 of /proc/<pid>/stat is the session id (after the command name in parentheses)
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[3]);
    }
}
