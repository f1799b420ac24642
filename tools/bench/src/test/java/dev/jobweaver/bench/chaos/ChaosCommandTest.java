package dev.jobweaver.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.local.AotCache;
import dev.jobweaver.local.JobWeaverLocal;
import dev.jobweaver.local.Platform;
import dev.jobweaver.local.Platform.Service;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** `jobweaver chaos`: its options, their defaults, bad usage, help, and the home folder it empties. */
class ChaosCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private CommandLine commandLine() {
        CommandLine commandLine = JobWeaverLocal.commandLine(Path.of("/repo"),
                new PrintStream(PrintStream.nullOutputStream()));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine;
    }

    private ChaosCommand parse(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "chaos";
        System.arraycopy(args, 0, all, 1, args.length);
        return (ChaosCommand) commandLine().parseArgs(all).subcommand().commandSpec().userObject();
    }

    /** Asserts that {@code option value} is refused in picocli's words, naming the option, the value and {@code why}. */
    private void assertInvalid(String option, String value, String why) {
        assertThatThrownBy(() -> parse(option, value))
                .hasMessage("Invalid value for option '" + option + "': '" + value + "' " + why);
    }

    @Test
    void defaultsAreTenMinutesAt200JobsASecondWithAKillEvery30Seconds() {
        ChaosCommand chaos = parse("--root", "/repo");
        ChaosRun.Settings settings = chaos.settings(5);
        assertThat(settings.duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(settings.rate()).isEqualTo(200);
        assertThat(settings.interval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.seed()).isEqualTo(5);
        assertThat(settings.waitForJobs()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings.down()).isEqualTo(Duration.ofSeconds(3));
        assertThat(settings.kills()).isEqualTo(19);
        assertThat(chaos.seed).as("random unless given").isNull();
        assertThat(chaos.home()).isEqualTo(Path.of("/repo/.jobweaver/chaos"));

        Platform.Options options = chaos.platformOptions(null);
        assertThat(options.root()).isEqualTo(Path.of("/repo"));
        assertThat(options.stack().home()).isEqualTo(Path.of("/repo/.jobweaver/chaos"));
        assertThat(options.stack().deleteOnClose()).isFalse();
        assertThat(options.replicas()).containsEntry(Service.API, 1).containsEntry(Service.SCHEDULER, 1)
                .containsEntry(Service.WORKER, 1);
        assertThat(options.restartDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(options.zipkinPort()).isZero();
        assertThat(options.aotCaches()).isEqualTo(AotCache.directoryUnder(Path.of("/repo/.jobweaver")));
        assertThat(options.jvmOptions()).isEqualTo(Platform.Options.DEFAULT_JVM);
        assertThat(options.basePorts().values()).allSatisfy(p -> assertThat(p).isBetween(1, 65_535))
                .doesNotContain(8080, 8081, 8082);
        assertThat(options.stack().kafkaPort()).isNotEqualTo(options.stack().kafkaControllerPort());
    }

    @Test
    void everyOptionIsRead() {
        ChaosCommand chaos = parse("--duration", "2m", "--rate", "50", "--interval=20s", "--seed", "42", "--wait",
                "90s", "--workers", "2", "--api-port", "18080", "--kafka-port", "19092", "--postgres-port", "15432",
                "--home", "/data/chaos", "--no-aot-cache", "--root", "/src/jw");
        ChaosRun.Settings settings = chaos.settings(chaos.seed);
        assertThat(settings.duration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(settings.rate()).isEqualTo(50);
        assertThat(settings.interval()).isEqualTo(Duration.ofSeconds(20));
        assertThat(settings.seed()).isEqualTo(42);
        assertThat(settings.waitForJobs()).isEqualTo(Duration.ofSeconds(90));
        assertThat(settings.kills()).as("at 20, 40, 60, 80 and 100 s").isEqualTo(5);
        Platform.Options options = chaos.platformOptions("-Xmx512m");
        assertThat(options.root()).isEqualTo(Path.of("/src/jw"));
        assertThat(options.stack().home()).isEqualTo(Path.of("/data/chaos"));
        assertThat(options.basePorts()).containsEntry(Service.API, 18080);
        assertThat(options.stack().kafkaPort()).isEqualTo(19092);
        assertThat(options.stack().kafkaControllerPort()).isEqualTo(19093);
        assertThat(options.stack().postgresPort()).isEqualTo(15432);
        assertThat(options.replicas()).containsEntry(Service.WORKER, 2);
        assertThat(options.stack().partitionOverrides()).as("two workers fit the default partitions").isEmpty();
        assertThat(options.aotCaches()).isNull();
        assertThat(options.jvmOptions()).endsWith("-Xmx512m");
    }

    @Test
    void moreWorkersThanRunJobPartitionsGetOnePartitionEach() {
        Platform.Options options = parse("--workers", "5").platformOptions(null);
        assertThat(options.stack().partitionOverrides()).isEqualTo(java.util.Map.of("run-job", 5));
    }

    @Test
    void badValuesNameTheOptionAndTheValue() {
        assertInvalid("--rate", "0", "is not a positive number");
        assertInvalid("--duration", "soon", "is not a duration such as 30s, 2m or 500ms");
        assertInvalid("--interval", "0", "is not a positive duration");
        assertInvalid("--workers", "0", "is not a positive whole number");
        assertThatThrownBy(() -> parse("--seed", "x")).isInstanceOf(ParameterException.class)
                .hasMessageContaining("--seed");
    }

    @Test
    void settingsUnderWhichNothingWouldBeKilledOrSentAreBadUsage() {
        assertThatThrownBy(() -> parse("--duration", "30s").settings(1)).isInstanceOf(ParameterException.class)
                .hasMessage("the interval (30s) is not shorter than the duration (30s): nothing would be killed");
        assertThatThrownBy(() -> parse("--rate", "0.001", "--duration", "1m", "--interval", "10s").settings(1))
                .isInstanceOf(ParameterException.class).hasMessageContaining("not one job would be submitted");
    }

    @Test
    void badUsageIsOneLineAndAHintWithStatusTwo() {
        assertThat(commandLine().execute("chaos", "--duration", "20s")).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver chaos: the interval (30s) is not shorter than the duration (20s): nothing would be killed",
                "Run ./jobweaver chaos --help for the options.");
        err.getBuffer().setLength(0);
        assertThat(commandLine().execute("chaos", "--intervals", "20s")).isEqualTo(2);
        assertThat(err.toString()).startsWith("jobweaver chaos: unknown option '--intervals'; did you mean --interval");
    }

    @Test
    void helpListsEveryOptionWithItsDefault() {
        assertThat(commandLine().execute("chaos", "--help")).isZero();
        String help = out.toString();
        assertThat(help).contains("Usage: jobweaver chaos [OPTIONS]");
        assertThat(help).containsPattern("--duration=D[\\s\\S]{0,200}?\\(default:\\s+10m\\)");
        assertThat(help).containsPattern("--rate=R[\\s\\S]{0,200}?\\(default:\\s+200\\)");
        assertThat(help).containsPattern("--interval=D[\\s\\S]{0,200}?\\(default:\\s+30s\\)");
        assertThat(help).containsPattern("--wait=D[\\s\\S]{0,200}?\\(default:\\s+5m\\)");
        assertThat(help).containsPattern("--workers=N[\\s\\S]{0,200}?\\(default:\\s+1\\)");
        assertThat(help).contains("--seed=N", "--api-port=P", "--kafka-port=P", "--postgres-port=P", "--home=DIR",
                "--no-aot-cache", "--root=DIR", "chaos-report.json", "Exit status: 0 when no accepted job was lost");
        assertThat(err.toString()).isEmpty();
        out.getBuffer().setLength(0);
        assertThat(commandLine().execute("--help")).isZero();
        assertThat(out.toString()).contains("chaos");
    }

    @Test
    void theHomeIsEmptiedOnlyWhenItIsAChaosRunsOrEmpty(@TempDir Path dir) throws Exception {
        Path fresh = dir.resolve("fresh");
        ChaosCommand.emptyHome(fresh);
        assertThat(fresh.resolve(ChaosCommand.MARKER)).exists();
        Files.createDirectories(fresh.resolve("logs"));
        Files.writeString(fresh.resolve("logs/api-service.log"), "old");
        ChaosCommand.emptyHome(fresh);
        assertThat(fresh.resolve("logs")).doesNotExist();
        assertThat(fresh.resolve(ChaosCommand.MARKER)).exists();

        Path someoneElses = dir.resolve("data");
        Files.createDirectories(someoneElses);
        Files.writeString(someoneElses.resolve("precious.txt"), "keep");
        assertThatThrownBy(() -> ChaosCommand.emptyHome(someoneElses)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a previous chaos run's home");
        assertThat(someoneElses.resolve("precious.txt")).hasContent("keep");
    }
}
