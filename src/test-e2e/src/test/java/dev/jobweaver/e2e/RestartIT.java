package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.local.PlatformSecrets;
import dev.jobweaver.local.Ports;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * `./jobweaver up` stopped and started again takes up its work at once: a job submitted right after "JobWeaver is up"
 * starts within 3 s, after a Ctrl-C (SIGINT to the whole process group, as a terminal sends it) as on the first start.
 * A SIGKILL of the launcher alone, the last stop, leaves no child that outlives it and holds a port. A SIGTERM runs the
 * launcher's one shutdown hook as a SIGINT does (it installs no signal handler of its own), so the Ctrl-C covers it.
 * The first start and stop are also the check of a clean start and a clean stop: no WARN or ERROR in any log. The
 * launcher prints the admin key it keeps in its home, the same one after a restart, and the API refuses a request
 * without it.
 *
 * <p>This runs the launcher itself, in a session of its own, on its own ports and folder: a platform beside the one
 * the other scenarios share, and so at the same time as they run (the module's {@code junit-platform.properties}).
 */
@Execution(ExecutionMode.CONCURRENT)
class RestartIT {

    /**
     * The one line at WARN that a clean stop leaves, written by the Kafka broker itself as it shuts down (its
     * controller channel closes a client twice); every other line at WARN or above fails the stop.
     */
    static final String BROKER_CLOSING_TWICE = "Attempting to close NetworkClient that has already been closed";

    /** What SPEC's reliability rules allow from submission to start after a restart. */
    static final Duration START_BOUND = Duration.ofSeconds(3);

    @TempDir
    Path home;

    private Process launcher;
    /** Where the running launcher's output goes. */
    private Path launcherOut;
    /** The admin key the launcher printed on its first start. */
    private String adminKey;
    private final int apiPort = Ports.stable();
    private final int schedulerPort = Ports.stable();
    private final int workerPort = Ports.stable();
    private final int kafkaPort = Ports.stable();
    private final int postgresPort = Ports.stable();

    /**
     * Waits until the shared platform is up (or has failed to start, which the scenarios that use it report): two
     * platforms starting at once on a 2-core machine would each take twice as long.
     */
    @BeforeAll
    static void afterTheSharedPlatformsStart() {
        try {
            E2ePlatform.get();
        } catch (RuntimeException e) {
            System.out.println("[restart] the shared platform did not start; this scenario does not need it: " + e);
        }
    }

    @AfterEach
    void stopWhatIsLeft() throws Exception {
        if (launcher != null && launcher.isAlive()) {
            signalGroup("TERM");
            launcher.waitFor(120, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJobSubmittedRightAfterARestartStartsWithinThreeSeconds() throws Exception {
        List<String> figures = new ArrayList<>();
        adminKey = printedKey(start());
        assertThat(adminKey).as("the key the launcher printed is the one it keeps in its home").isEqualTo(
                PlatformSecrets.load(home.resolve("platform")).orElseThrow().adminKey());
        assertThat(new JobWeaverClient("http://localhost:" + apiPort).get("/api/jobs").status())
                .as("without the key").isEqualTo(401);
        figures.add("first start: " + submitAndTime());
        assertThat(warningsAndErrors()).as("WARN and ERROR lines in the logs of a healthy start").isEmpty();

        signalGroup("INT");
        if (!launcher.waitFor(120, TimeUnit.SECONDS)) {
            throw new AssertionError("the launcher did not exit within 120 s of a Ctrl-C; its processes:\n"
                    + processesOfItsGroup() + "\nwhat it printed:\n" + Files.readString(launcherOut));
        }
        assertPortsFree(Duration.ofSeconds(5));
        assertThat(warningsAndErrors()).as("WARN and ERROR lines in the logs after a clean stop")
                .filteredOn(line -> !line.contains(BROKER_CLOSING_TWICE)).isEmpty();
        assertThat(printedKey(start())).as("the same key after a restart").isEqualTo(adminKey);
        figures.add("after Ctrl-C (SIGINT to the group): " + submitAndTime());

        launcher.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertPortsFree(Duration.ofSeconds(90)); // the reaper stops services, then Kafka, then PostgreSQL

        System.out.println("[measure] restart to first job (a no-op job submitted right after 'JobWeaver is up'): "
                + String.join("; ", figures));
    }

    /**
     * Submits one no-op job, waits until it is COMPLETED, and checks how long after its acceptance it ran: from its
     * {@code createdAt} (the API's commit) to its {@code finishedAt} (the worker's end of a run of no time), both
     * stamped on this machine's clock. The time until the read model shows it is printed beside.
     */
    private String submitAndTime() {
        JobWeaverClient api = new JobWeaverClient("http://localhost:" + apiPort, adminKey);
        long submitted = System.nanoTime();
        UUID id = api.submitAccepted(Jobs.noop());
        Map<UUID, JsonNode> done = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60));
        Duration visible = Duration.ofNanos(System.nanoTime() - submitted);
        JsonNode job = done.get(id);
        assertThat(job.path("status").asText()).isEqualTo("COMPLETED");
        Duration ran = Duration.between(Instant.parse(job.path("createdAt").asText()),
                Instant.parse(job.path("finishedAt").asText()));
        assertThat(ran).as("acceptance to the end of its run, right after the start").isLessThan(START_BOUND);
        return String.format("ran %.2f s after acceptance (visible in GET after %.2f s)", ran.toMillis() / 1000.0,
                visible.toMillis() / 1000.0);
    }

    /**
     * Starts the launcher and returns what it printed up to "JobWeaver is up" and the lines after it, the key among
     * them.
     */
    private String start() throws Exception {
        Path root = Path.of(System.getProperty("jobweaver.root", "../..")).toAbsolutePath().normalize();
        Path launcherJar = root.resolve("tools/launcher/target/jobweaver-launcher.jar");
        String java = ProcessHandle.current().info().command().orElse("java");
        Path out = home.resolve("launcher-" + System.nanoTime() + ".out");
        // With default dispositions, as from a terminal: a suite started as a background job of a script inherits
        // SIGINT ignored, and a JVM leaves a signal ignored on entry ignored, so the Ctrl-C would never reach it.
        List<String> command = List.of("env", "--default-signal=INT,TERM", "setsid", java,
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                "-cp", launcherJar + ":" + root.resolve("tools/launcher/target/lib") + "/*",
                "dev.jobweaver.local.JobWeaverLocal", "up", "--root", root.toString(),
                "--home", home.resolve("platform").toString(), "--no-aot-cache",
                "--api-port", Integer.toString(apiPort), "--scheduler-port", Integer.toString(schedulerPort),
                "--worker-port", Integer.toString(workerPort), "--kafka-port", Integer.toString(kafkaPort),
                "--postgres-port", Integer.toString(postgresPort));
        launcher = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        launcherOut = out;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (System.nanoTime() < deadline) {
            String printed = Files.exists(out) ? Files.readString(out) : "";
            if (printed.contains("JobWeaver is up") && printed.contains("Press Ctrl-C to stop.")) {
                return printed;
            }
            if (!launcher.isAlive()) {
                throw new AssertionError("the launcher exited (" + launcher.exitValue() + "):\n" + printed);
            }
            Thread.sleep(200);
        }
        throw new AssertionError("not up within 240 s:\n" + Files.readString(out));
    }

    /** The key on the launcher's "Admin API key: jw_..." line. */
    private static String printedKey(String printed) {
        java.util.regex.Matcher key = java.util.regex.Pattern.compile("Admin API key: (jw_[A-Za-z0-9_-]{43})")
                .matcher(printed);
        assertThat(key.find()).as("the launcher prints the admin key:\n" + printed).isTrue();
        return key.group(1);
    }

    /**
     * Every line at WARN or above in the platform's logs (the services' logs and out files, their schema migrations,
     * the broker's and PostgreSQL's logs), each prefixed with its file: a healthy start has none.
     */
    private List<String> warningsAndErrors() throws IOException {
        java.util.regex.Pattern level = java.util.regex.Pattern.compile("\\b(WARN|WARNING|ERROR|FATAL|SEVERE|PANIC)\\b");
        List<String> found = new ArrayList<>();
        try (var files = Files.walk(home.resolve("platform"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".log") || f.toString().endsWith(".out"))
                    .filter(Files::isRegularFile).toList()) {
                for (String line : Files.readAllLines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
                    if (level.matcher(line).find()) {
                        found.add(file.getFileName() + ": " + line);
                    }
                }
            }
        }
        return found;
    }

    /**
     * The launcher's processes and what its threads are doing: every process whose command line names this platform's
     * home or whose parent is the launcher, with its state and what it waits in, then the launcher's thread dump.
     */
    private String processesOfItsGroup() throws Exception {
        StringBuilder found = new StringBuilder();
        String listed = run("ps", "-eo", "pid,ppid,pgid,sid,stat,wchan:20,etime,args");
        for (String line : listed.split("\n")) {
            String[] columns = line.trim().split("\\s+");
            if (line.contains(home.toString()) || columns.length > 1 && columns[1].equals(Long.toString(launcher.pid()))
                    || columns[0].equals(Long.toString(launcher.pid()))) {
                found.append(line).append('\n');
            }
        }
        Path jcmd = Path.of(ProcessHandle.current().info().command().orElse("java")).resolveSibling("jcmd");
        return found + "\n" + run(jcmd.toString(), Long.toString(launcher.pid()), "Thread.print");
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        process.waitFor(30, TimeUnit.SECONDS);
        return out;
    }

    /** Sends {@code signal} to the launcher's whole process group, as a terminal or a process manager would. */
    private void signalGroup(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + launcher.pid()).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    private void assertPortsFree(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        List<Integer> busy;
        do {
            busy = new ArrayList<>();
            for (int port : List.of(apiPort, schedulerPort, workerPort, kafkaPort, postgresPort)) {
                if (listening(port)) {
                    busy.add(port);
                }
            }
            if (busy.isEmpty()) {
                return;
            }
            Thread.sleep(250);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("ports still held after the launcher was gone: " + busy);
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
