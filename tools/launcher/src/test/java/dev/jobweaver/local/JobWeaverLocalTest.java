package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.local.Platform.Service;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** The `jobweaver` command line: what `up` and `infra` are asked to do, help, and bad usage. */
class JobWeaverLocalTest {

    private static final Path ROOT = Path.of("/repo");

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private CommandLine commandLine() {
        CommandLine commandLine = JobWeaverLocal.commandLine(ROOT, new PrintStream(PrintStream.nullOutputStream()));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine;
    }

    /** Parses without running anything and returns the chosen command's object. */
    private <T> T parse(Class<T> type, String... args) {
        CommandLine.ParseResult result = commandLine().parseArgs(args);
        return type.cast(result.subcommand().commandSpec().userObject());
    }

    @Test
    void upDefaultsToOneOfEachServiceOnTheUsualPorts() {
        UpCommand up = parse(UpCommand.class, "up", "--root", "/repo");
        assertThat(up.basePorts()).isEqualTo(Map.of(Service.API, 8080, Service.SCHEDULER, 8081, Service.WORKER, 8082));
        assertThat(up.replicas()).isEqualTo(Map.of(Service.API, 1, Service.SCHEDULER, 1, Service.WORKER, 1));
        Platform.Options options = up.platformOptions(null, null);
        assertThat(options.root()).isEqualTo(ROOT);
        assertThat(options.stack().home()).isEqualTo(Path.of("/repo/.jobweaver"));
        assertThat(options.stack().kafkaPort()).isEqualTo(9092);
        assertThat(options.stack().kafkaControllerPort()).isEqualTo(9093);
        assertThat(options.stack().postgresPort()).isEqualTo(5432);
        assertThat(options.zipkinPort()).as("no trace viewer").isZero();
        assertThat(options.aotCaches()).isEqualTo(AotCache.directoryUnder(Path.of("/repo/.jobweaver")));
        assertThat(options.oneAtATime()).isTrue();
        assertThat(options.jvmOptions()).isEqualTo(Platform.Options.DEFAULT_JVM);
        assertThat(options.insecure()).as("secured unless asked").isFalse();
        assertThat(options.stack().statementStats()).as("no statement statistics unless asked").isFalse();
    }

    @Test
    void sqlStatsAsksPostgresForStatementStatistics() {
        assertThat(parse(UpCommand.class, "up", "--sql-stats", "--root", "/repo").platformOptions(null, null).stack()
                .statementStats()).isTrue();
    }

    @Test
    void insecureRunsTheApiOpenAndSaysSoWhereTheKeyWouldBe() {
        UpCommand up = parse(UpCommand.class, "up", "--insecure", "--root", "/repo");
        assertThat(up.platformOptions(null, null).insecure()).isTrue();
        assertThat(up.access(null, Path.of("/repo/.jobweaver")))
                .startsWith(UpCommand.INSECURE_WARNING)
                .noneMatch(line -> line.contains("Authorization"))
                .contains("  curl http://localhost:8080/api/jobs");
    }

    @Test
    void aSecuredPlatformPrintsItsKeyWhereItIsKeptAndCurlCommandsThatSendIt() {
        UpCommand up = parse(UpCommand.class, "up", "--api-port", "18080", "--root", "/repo");
        String key = "jw_" + "A".repeat(43);
        java.util.List<String> lines = up.access(key, Path.of("/repo/.jobweaver"));
        assertThat(lines).contains("Admin API key: " + key,
                "  curl -H \"Authorization: Bearer " + key + "\" http://localhost:18080/api/jobs");
        assertThat(String.join("\n", lines)).contains("/repo/.jobweaver/secrets.properties", "./jobweaver key")
                .doesNotContain("INSECURE");
        assertThat(lines).filteredOn(line -> line.contains("-d '")).singleElement().asString()
                .contains("Authorization: Bearer " + key, "\"jobType\":\"SIMULATION\"",
                        "http://localhost:18080/api/jobs");
    }

    @Test
    void everyUpOptionIsRead() {
        UpCommand up = parse(UpCommand.class, "up", "--workers", "3", "--schedulers", "2", "--api-port", "18080",
                "--scheduler-port=18081", "--worker-port", "18082", "--kafka-port", "19092", "--postgres-port",
                "15432", "--traces", "--zipkin-port", "19411", "--no-aot-cache", "--start-together", "--home",
                "/data/jw", "--root", "/src/jobweaver");
        assertThat(up.basePorts()).isEqualTo(Map.of(Service.API, 18080, Service.SCHEDULER, 18081,
                Service.WORKER, 18082));
        assertThat(up.replicas()).isEqualTo(Map.of(Service.API, 1, Service.SCHEDULER, 2, Service.WORKER, 3));
        Platform.Options options = up.platformOptions("-Xmx512m", null);
        assertThat(options.root()).isEqualTo(Path.of("/src/jobweaver"));
        assertThat(options.stack().home()).isEqualTo(Path.of("/data/jw"));
        assertThat(options.stack().kafkaPort()).isEqualTo(19092);
        assertThat(options.stack().kafkaControllerPort()).isEqualTo(19093);
        assertThat(options.stack().postgresPort()).isEqualTo(15432);
        assertThat(options.zipkinPort()).isEqualTo(19411);
        assertThat(options.aotCaches()).isNull();
        assertThat(options.oneAtATime()).isFalse();
        assertThat(options.jvmOptions()).endsWith("-Xmx512m");
    }

    @Test
    void poolsAndWorkerJarsBecomeWorkerPoolsOnPortsOfTheirOwn() {
        UpCommand up = parse(UpCommand.class, "up", "--worker-port", "18082", "--pool", "reports,exports",
                "--pool", "images", "--worker-jar", "/src/billing-worker/target/quarkus-app/quarkus-run.jar",
                "--worker-jar", "/opt/resize.jar");

        assertThat(up.workerPools()).containsExactly(
                new Platform.WorkerPool("worker-reports", null, List.of("reports", "exports"), 18132),
                new Platform.WorkerPool("worker-images", null, List.of("images"), 18133),
                new Platform.WorkerPool("billing-worker",
                        Path.of("/src/billing-worker/target/quarkus-app/quarkus-run.jar"), List.of(), 18152),
                new Platform.WorkerPool("resize", Path.of("/opt/resize.jar"), List.of(), 18153));
        assertThat(parse(UpCommand.class, "up").workerPools()).isEmpty();
    }

    @Test
    void aPoolOfAMalformedQueueIsBadUsageNamingTheQueue() {
        assertThatThrownBy(() -> parse(UpCommand.class, "up", "--pool", "reports,Bad Queue"))
                .hasMessageContaining("'Bad Queue' is not a queue name");
        assertThatThrownBy(() -> parse(UpCommand.class, "up", "--pool", "reports,"))
                .hasMessageContaining("'' is not a queue name");
    }

    @Test
    void partitionCountsAreReadByUpAndInfra() {
        UpCommand up = parse(UpCommand.class, "up", "--partitions", "job-created=6,run-job=6", "--partitions",
                "job-status=4");
        assertThat(up.platformOptions(null, null).stack().partitionOverrides())
                .isEqualTo(Map.of("job-created", 6, "run-job", 6, "job-status", 4));
        InfraCommand infra = parse(InfraCommand.class, "infra", "--partitions", "run-job=12");
        assertThat(infra.stack.settings().partitionOverrides()).isEqualTo(Map.of("run-job", 12));
        assertThat(parse(UpCommand.class, "up").platformOptions(null, null).stack().partitionOverrides())
                .as("the defaults of Topics.ALL").isEmpty();
    }

    @Test
    void replicasBeyondTheDefaultCountsRaiseThePartitionsTheyShare() {
        UpCommand up = parse(UpCommand.class, "up", "--schedulers", "4", "--workers", "6");
        assertThat(up.platformOptions(null, null).stack().partitionOverrides()).isEqualTo(Map.of("job-created", 4,
                "job-completed", 4, "job-failed", 4, "job-commands", 4, "schedules", 4, "workflow-runs", 4,
                "tenant-limits", 4, "run-job", 6));
        assertThat(up.partitionPlan().notes()).hasSize(8);
    }

    @Test
    void partitionsThatLeaveAReplicaWithoutAShareAreRefusedBeforeAnythingStarts() {
        assertThat(commandLine().execute("up", "--workers", "3", "--partitions", "run-job=2", "--home",
                "/nonexistent")).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("jobweaver up: --partitions run-job=2 leaves 1 of the 3 workers "
                + "without a run-job partition: give run-job at least 3");
    }

    @Test
    void aBadPartitionValueIsBadUsageNamingTheTopicOrTheCount() {
        assertThat(commandLine().execute("up", "--partitions", "run-jobs=6")).isEqualTo(2);
        assertThat(commandLine().execute("infra", "--partitions", "run-job=-1")).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver up: Invalid value for option '--partitions' (TOPIC=N[,...]): unknown topic 'run-jobs' "
                        + "(job-created, run-job, job-completed, job-failed, job-dead-letter, job-status, "
                        + "job-commands, worker-commands, schedules, schedule-fired, workflow-runs, workflow-progress, "
                        + "tenant-limits, worker-heartbeats, jobweaver-quarantine)",
                "Run ./jobweaver up --help for the options.",
                "jobweaver infra: Invalid value for option '--partitions' (TOPIC=N[,...]): '-1' is not a partition "
                        + "count for run-job (a whole number from 1 to 100)",
                "Run ./jobweaver infra --help for the options.");
    }

    @Test
    void theZipkinPortAloneStartsNoViewer() {
        assertThat(parse(UpCommand.class, "up", "--zipkin-port", "19411").platformOptions(null, null).zipkinPort())
                .isZero();
    }

    @Test
    void infraTakesTheInfrastructureOptionsOnly() {
        InfraCommand infra = parse(InfraCommand.class, "infra", "--kafka-port", "29092", "--postgres-port", "25432",
                "--home", "/data/jw", "--root", "/repo");
        LocalStack.Settings settings = infra.stack.settings();
        assertThat(settings.kafkaPort()).isEqualTo(29092);
        assertThat(settings.kafkaControllerPort()).isEqualTo(29093);
        assertThat(settings.postgresPort()).isEqualTo(25432);
        assertThat(settings.home()).isEqualTo(Path.of("/data/jw"));
        assertThat(settings.deleteOnClose()).isFalse();
        assertThatThrownBy(() -> parse(InfraCommand.class, "infra", "--workers", "2"))
                .isInstanceOf(ParameterException.class).hasMessageStartingWith("Unknown options: '--workers'");
    }

    @Test
    void badValuesNameTheOptionAndTheValue() {
        assertThatThrownBy(() -> parse(UpCommand.class, "up", "--workers", "0"))
                .hasMessage("Invalid value for option '--workers': '0' is not a positive whole number");
        assertThatThrownBy(() -> parse(UpCommand.class, "up", "--schedulers", "two"))
                .hasMessage("Invalid value for option '--schedulers': 'two' is not a positive whole number");
        assertThatThrownBy(() -> parse(UpCommand.class, "up", "--api-port", "70000"))
                .hasMessage("Invalid value for option '--api-port': '70000' is not a port (1-65535)");
        assertThatThrownBy(() -> parse(UpCommand.class, "up", "--kafka-port"))
                .hasMessage("Missing required parameter for option '--kafka-port' (P)");
        assertThatThrownBy(() -> parse(UpCommand.class, "up", "--traces=yes"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("--traces");
    }

    @Test
    void badUsageIsOneLineNamingTheProblemAndAHintWithStatusTwo() {
        assertThat(commandLine().execute("up", "--worker", "2")).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver up: unknown option '--worker'; did you mean --workers or --worker-jar or --worker-port?",
                "Run ./jobweaver up --help for the options.");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void anArgumentNoOptionTakesIsBadUsage() {
        assertThat(commandLine().execute("up", "--workers", "2", "3")).isEqualTo(2);
        assertThat(err.toString()).startsWith("jobweaver up: unexpected argument '3'\n");
    }

    @Test
    void anUnknownOrMissingCommandIsBadUsage() {
        assertThat(commandLine().execute("deploy")).isEqualTo(2);
        assertThat(commandLine().execute()).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver: unknown command 'deploy' (up, infra, key, build, test)",
                "Run ./jobweaver --help for the options.",
                "jobweaver: no command given (up, infra, key, build, test)",
                "Run ./jobweaver --help for the options.");
    }

    @Test
    void aRefusalBeforeAnythingStartsIsOneLineWithStatusTwo() throws Exception {
        // Kafka's port is the first one checked, so the refusal does not depend on what else listens on the machine
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0)) {
            int port = taken.getLocalPort();
            assertThat(commandLine().execute("infra", "--kafka-port", Integer.toString(port), "--home", "/nonexistent"))
                    .isEqualTo(2);
            assertThat(err.toString().strip()).isEqualTo("jobweaver infra: port " + port + " (Kafka) is already in use: "
                    + "stop what listens there or choose another port with --kafka-port");
        }
    }

    @Test
    void helpListsEveryCommandAndEveryUpOptionWithItsDefault() {
        assertThat(commandLine().execute("--help")).isZero();
        assertThat(out.toString()).contains("Usage: jobweaver [-h] COMMAND", "up", "infra", "key", "build", "test",
                "Run ./jobweaver COMMAND --help");
        out.getBuffer().setLength(0);

        assertThat(commandLine().execute("up", "--help", "--root", "/repo")).isZero();
        String help = out.toString();
        assertThat(help).contains("Usage: jobweaver up [OPTIONS]");
        assertThat(help).containsPattern("--workers=N\\s+Worker\\s+replicas\\s+\\(default:\\s+1\\)");
        assertThat(help).containsPattern("--schedulers=N\\s+Scheduler\\s+replicas\\s+\\(default:\\s+1\\)");
        assertThat(help).containsPattern("--api-port=P\\s+API\\s+port\\s+\\(default:\\s+8080\\)");
        assertThat(help).containsPattern("--scheduler-port=P[\\s\\S]{0,200}?\\(default:\\s+8081\\)");
        assertThat(help).containsPattern("--worker-port=P[\\s\\S]{0,200}?\\(default:\\s+8082\\)");
        assertThat(help).containsPattern("--kafka-port=P[\\s\\S]{0,200}?\\(default:\\s+9092\\)");
        assertThat(help).containsPattern("--postgres-port=P[\\s\\S]{0,200}?\\(default:\\s+5432\\)");
        assertThat(help).containsPattern("--zipkin-port=P[\\s\\S]{0,200}?\\(default:\\s+9411\\)");
        assertThat(help).contains("--traces", "--no-aot-cache", "--start-together", "--home=DIR", "--root=DIR",
                "JOBWEAVER_JAVA_OPTS");
        assertThat(help).containsPattern("--partitions=TOPIC=N\\[,\\.\\.\\.]\\s+Partition\\s+counts");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void upNativeRunsTheExecutablesWithANativeHeapCapAndNoAotCache() {
        UpCommand up = parse(UpCommand.class, "up", "--native", "--root", "/repo");
        Platform.Options options = up.platformOptions("-XX:+UseSerialGC", "-Xmx96m");
        assertThat(options.nativeExecutables()).isTrue();
        assertThat(options.aotCaches()).isNull();
        assertThat(options.jvmOptions()).containsExactly("-Xmx40m", "-XX:+ExitOnOutOfMemoryError", "-Xmx96m");
        assertThat(parse(UpCommand.class, "up").platformOptions(null, null).nativeExecutables()).isFalse();
    }

    @Test
    void upNativeRefusesMissingExecutablesNamingThemAndHowToBuildThemWithStatusTwo(@org.junit.jupiter.api.io.TempDir
                                                                                  Path root) throws Exception {
        Path worker = Service.WORKER.executable(root);
        java.nio.file.Files.createDirectories(worker.getParent());
        java.nio.file.Files.writeString(worker, "");
        assertThat(commandLine().execute("up", "--native", "--root", root.toString())).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("jobweaver up: native executables are missing: "
                + Service.API.executable(root) + ", " + Service.SCHEDULER.executable(root)
                + "; build them with ./jobweaver build --native (several minutes each), or run up without --native");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void buildAndTestHelpDescribeTheirNativeForms() {
        assertThat(commandLine().execute("build", "--help")).isZero();
        String build = out.toString().replaceAll("\\s+", " ");
        assertThat(build).contains("Usage: jobweaver build [OPTIONS]", "--native", "--missing", "GRAALVM_HOME",
                "native-image on the PATH", "jobweaver/native-image", "XDG_CACHE_HOME", "assemble", "status 2",
                "--parallelism=1", "jobweaver-SERVICE-1.0.0-SNAPSHOT-runner");
        out.getBuffer().setLength(0);

        assertThat(commandLine().execute("test", "--help")).isZero();
        assertThat(out.toString()).contains("Usage: jobweaver test [OPTIONS]", "--native", "-Pnative",
                "@QuarkusIntegrationTest", "tagged native");
        out.getBuffer().setLength(0);

        assertThat(commandLine().execute("up", "--help")).isZero();
        assertThat(out.toString()).contains("--native", "JOBWEAVER_NATIVE_OPTS", "exits with status 2");
        assertThat(err.toString()).isEmpty();
    }
}
