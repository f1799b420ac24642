package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What the command does before it touches a platform: help, bad usage, and refusing a platform that is not up. */
class BenchTest extends CommandTestBase {

    /** The launcher finds bench and chaos through its CommandPlugin: they appear after its own commands. */
    @Test
    void theLauncherListsBenchAndChaosAfterItsOwnCommands() {
        assertThat(execute("deploy")).isEqualTo(2);
        assertThat(execute()).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver: unknown command 'deploy' (up, infra, key, build, test, bench, chaos)",
                "Run ./jobweaver --help for the options.",
                "jobweaver: no command given (up, infra, key, build, test, bench, chaos)",
                "Run ./jobweaver --help for the options.");
        assertThat(execute("--help")).isZero();
        assertThat(out.toString()).contains("Usage: jobweaver [-h] COMMAND", "bench", "chaos");
    }

    @Test
    void helpListsEveryOptionWithItsDefaultAndEveryWorkload() {
        assertThat(execute("bench", "--help")).isZero();
        String help = out.toString();
        assertThat(help).contains("Usage: jobweaver bench [OPTIONS] [WORKLOAD...]");
        assertThat(help).contains("burst", "steady", "sleepers", "retries", "priorities", "delayed", "delayed-idle");
        assertThat(help).containsPattern("--jobs=N\\s+Jobs\\s+per\\s+burst,\\s+sleepers,\\s+retries\\s+and\\s+"
                + "priorities\\s+run\\s+\\(default:\\s+20000\\)");
        String[][] defaults = {{"--delayed-jobs=N", "2000"}, {"--delayed-over=D", "20s"}, {"--delay-min=D", "2s"},
            {"--delay-max=D", "8s"}, {"--idle-rows=K", "1000000"}, {"--idle-window=D", "30s"}, {"--rate=R", "100"},
            {"--duration=D", "30s"}, {"--baseline=J", "none"}, {"--timeout=D", "120s"}, {"--limits-burst=N", "2048"},
            {"--limits-binding=N", "5"}, {"--limits-jobs=N", "200"}, {"--home=DIR", ".jobweaver"}};
        for (String[] optionAndDefault : defaults) {
            assertThat(help).containsPattern(Pattern.quote(optionAndDefault[0]) + "[\\s\\S]{0,200}?\\(default:\\s+"
                    + Pattern.quote(optionAndDefault[1]) + "\\)");
        }
        assertThat(help).containsPattern("--concurrency=C,\\.\\.\\.\\s[\\s\\S]{0,300}?a\\s+list\\s+\\(1,16,64,256\\)"
                + "\\s+runs\\s+the\\s+burst\\s+once\\s+per\\s+value[\\s\\S]{0,100}?\\(default:\\s+64\\)");
        assertThat(help).containsPattern("--warmup=N\\|auto\\s+No-op\\s+jobs\\s+run\\s+first\\s+and\\s+not\\s+reported\\.\\s+auto\\s+\\(default\\)");
        assertThat(help).containsPattern("--settle=D[\\s\\S]{0,200}?\\(default:\\s+20s;\\s+0:\\s+none\\)");
        assertThat(help).contains("--out=DIR", "Exit status: 0");
        assertThat(err.toString()).isEmpty();
    }

    /** Each workload's line of the help fits the 80 columns picocli wraps at, so no word lands alone on a line. */
    @Test
    void everyWorkloadOfTheHelpIsOneLineNamingItFirst() {
        assertThat(execute("bench", "--help")).isZero();
        List<String> lines = out.toString().lines().toList();
        int first = lines.indexOf("Workloads:") + 1;
        List<String> workloads = lines.subList(first, first + Workload.values().length);
        for (int i = 0; i < workloads.size(); i++) {
            assertThat(workloads.get(i)).startsWith("  " + Workload.values()[i].cliName() + " ");
        }
        assertThat(lines.get(first + Workload.values().length)).isBlank();
    }

    @Test
    void badUsageIsOneLineNamingTheProblemAndAHintWithStatusTwo() {
        assertThat(execute("bench", "--jobs", "many")).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver bench: Invalid value for option '--jobs': 'many' is not a number",
                "Run ./jobweaver bench --help for the options.");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void anUnknownWorkloadListsTheValidOnesWithStatusTwo() {
        assertThat(execute("bench", "storm")).isEqualTo(2);
        assertThat(err.toString()).startsWith("jobweaver bench: unknown workload 'storm'; valid: burst, steady, "
                + "sleepers, retries, priorities, delayed, delayed-idle, cancel, notify, schedules, workflow, "
                + "limits, mixed, queues, purge\nRun ./jobweaver bench "
                + "--help");
    }

    @Test
    void withoutAPlatformItSaysSoWithStatusTwo() {
        assertThatThrownBy(() -> Bench.run(BenchOptions.parse(List.of("burst"), cwd), System.out))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("the platform is not up");
        assertThat(execute("bench", "burst")).isEqualTo(2);
        assertThat(err.toString()).startsWith("jobweaver bench: the platform is not up");
    }

    @Test
    void aStateFileLeftFromAnEarlierRunIsNotTakenForARunningPlatform() throws Exception {
        Path home = Files.createDirectories(cwd.resolve(".jobweaver"));
        long deadPid = new ProcessBuilder("true").start().onExit().get().pid();
        Files.writeString(home.resolve("platform.properties"), "postgres.port=1\nservice.api-service.url=http\\://"
                + "localhost\\:1\nservice.api-service.pid=" + deadPid + "\n");
        assertThatThrownBy(() -> Bench.run(BenchOptions.parse(List.of(), cwd), System.out))
                .hasMessageContaining("api-service (pid " + deadPid + ") is not running")
                .hasMessageContaining("left from an earlier run");
    }
}
