package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParameterException;

/** What `jobweaver bench ARGS` asks for, and how bad usage is named. */
class BenchOptionsTest {

    private static final Path CWD = Path.of("/repo");

    private static BenchOptions parse(String... args) {
        return BenchOptions.parse(List.of(args), CWD);
    }

    /** Asserts that {@code option value} is refused in picocli's words, naming the option, the value and {@code why}. */
    private static void assertInvalid(String option, String value, String why) {
        assertThatThrownBy(() -> parse(option, value))
                .hasMessage("Invalid value for option '" + option + "': '" + value + "' " + why);
    }

    @Test
    void defaultsRunEveryWorkloadAtFullSize() {
        BenchOptions o = parse();
        assertThat(o.workloads()).containsExactly(Workload.BURST, Workload.STEADY, Workload.SLEEPERS, Workload.RETRIES);
        assertThat(o.jobs()).isEqualTo(20_000);
        assertThat(o.concurrencies()).containsExactly(64);
        assertThat(o.concurrency()).isEqualTo(64);
        assertThat(o.warmup()).isEqualTo(BenchOptions.AUTO_WARMUP);
        assertThat(o.rate()).isEqualTo(100);
        assertThat(o.duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.settle()).isEqualTo(Duration.ofSeconds(20));
        assertThat(o.timeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(o.baseline()).isNaN();
        assertThat(o.home()).isEqualTo(Path.of("/repo/.jobweaver"));
        assertThat(o.out()).isNull();
    }

    @Test
    void workloadsRunInTheirFixedOrderWhateverTheCommandLineOrder() {
        assertThat(parse("sleepers", "burst").workloads()).containsExactly(Workload.BURST, Workload.SLEEPERS);
        assertThat(parse("retries", "--jobs", "10", "steady").workloads())
                .containsExactly(Workload.STEADY, Workload.RETRIES);
    }

    @Test
    void everyOptionIsRead() {
        BenchOptions o = parse("steady", "--jobs", "500", "--concurrency", "8", "--rate", "250",
                "--duration", "2m", "--baseline", "1800", "--warmup", "0", "--settle", "5s", "--timeout", "500ms",
                "--home", "h", "--out", "/tmp/x");
        assertThat(o.workloads()).containsExactly(Workload.STEADY);
        assertThat(o.jobs()).isEqualTo(500);
        assertThat(o.concurrencies()).containsExactly(8);
        assertThat(o.concurrency()).isEqualTo(8);
        assertThat(o.rate()).isEqualTo(250);
        assertThat(o.duration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(o.baseline()).isEqualTo(1800);
        assertThat(o.warmup()).isZero();
        assertThat(o.settle()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.timeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(o.home()).isEqualTo(Path.of("/repo/h"));
        assertThat(o.out()).isEqualTo(Path.of("/tmp/x"));
    }

    @Test
    void concurrencyTakesAListThatRunsTheBurstOncePerValueInIncreasingOrder() {
        assertThat(parse("--concurrency", "256,1,64,16").concurrencies()).containsExactly(1, 16, 64, 256);
        assertThat(parse("--concurrency=64,64,1").concurrencies()).containsExactly(1, 64);
        assertThat(parse("--concurrency", "1", "--concurrency", "16").concurrencies()).containsExactly(1, 16);
        assertThat(parse("--concurrency", "2e2").concurrencies()).containsExactly(200);
        assertThatThrownBy(() -> parse("--concurrency", "1,0,64"))
                .hasMessage("Invalid value for option '--concurrency' (C,...): '0' is not a positive number");
        assertThatThrownBy(() -> parse("--concurrency", "1,,64")).isInstanceOf(ParameterException.class);
    }

    @Test
    void sleepersRetriesAndTheWarmUpRunAtTheTargetsClientWhenListedElseTheLargest() {
        assertThat(parse("--concurrency", "1,16,64,256").concurrency()).isEqualTo(64);
        assertThat(parse("--concurrency", "1,16,256").concurrency()).isEqualTo(256);
        assertThat(parse("--concurrency", "4").concurrency()).isEqualTo(4);
    }

    @Test
    void aConnectionSubmitsAtMostFiveHundredJobs() {
        BenchOptions o = parse("--concurrency", "1,16,64,256");
        assertThat(o.jobsAt(1)).isEqualTo(500);
        assertThat(o.jobsAt(16)).isEqualTo(8_000);
        assertThat(o.jobsAt(64)).isEqualTo(20_000);
        assertThat(o.jobsAt(256)).isEqualTo(20_000);
        assertThat(parse("--jobs", "300").jobsAt(1)).isEqualTo(300);
        assertThat(parse("--jobs", "2e9").jobsAt(Integer.MAX_VALUE)).isEqualTo(2_000_000_000);
    }

    @Test
    void runsNameEachBurstByItsConcurrencyOnlyWhenThereAreSeveral() {
        assertThat(parse("--concurrency", "1,64").runs()).containsExactly(
                new BenchOptions.Run(Workload.BURST, 1, "burst c=1"),
                new BenchOptions.Run(Workload.BURST, 64, "burst c=64"),
                new BenchOptions.Run(Workload.STEADY, 0, "steady"),
                new BenchOptions.Run(Workload.SLEEPERS, 64, "sleepers"),
                new BenchOptions.Run(Workload.RETRIES, 64, "retries"));
        assertThat(parse("burst", "sleepers", "--concurrency", "16").runs()).containsExactly(
                new BenchOptions.Run(Workload.BURST, 16, "burst"),
                new BenchOptions.Run(Workload.SLEEPERS, 16, "sleepers"));
        assertThat(new BenchOptions.Run(Workload.BURST, 16, "burst c=16").fileStem()).isEqualTo("burst-c16");
        assertThat(new BenchOptions.Run(Workload.BURST, 16, "burst").fileStem()).isEqualTo("burst");
    }

    @Test
    void optionsTakeTheirValueAfterAnEqualsSignToo() {
        BenchOptions o = parse("--jobs=2e4", "--rate=2.5", "--out=../figures");
        assertThat(o.jobs()).isEqualTo(20_000);
        assertThat(o.rate()).isEqualTo(2.5);
        assertThat(o.out()).isEqualTo(Path.of("/figures"));
    }

    @Test
    void warmupIsAutoOrAWholeNumberOfJobs() {
        assertThat(parse("--warmup", "auto").warmup()).isEqualTo(BenchOptions.AUTO_WARMUP);
        assertThat(parse("--warmup", "5000").warmup()).isEqualTo(5000);
        assertThat(parse("--warmup", "0").warmup()).isZero();
        assertThatThrownBy(() -> parse("--warmup", "-1")).isInstanceOf(ParameterException.class)
                .hasMessage("Invalid value for option '--warmup': '-1' is neither auto nor a number of at least 0");
        assertInvalid("--warmup", "soon", "is not a number");
    }

    @Test
    void steadySettlesForTwentySecondsUnlessToldOtherwise() {
        assertThat(parse("steady").settle()).isEqualTo(Duration.ofSeconds(20));
        assertThat(parse("steady", "--settle", "0").settle()).isZero();
        assertThat(parse("steady", "--settle", "0s").settle()).isZero();
        assertThat(parse("steady", "--settle", "0.0ms").settle()).isZero();
        assertThatThrownBy(() -> parse("steady", "--settle", "soon"))
                .hasMessage("Invalid value for option '--settle': 'soon' is not a duration such as 30s, 2m or 500ms");
    }

    @Test
    void durationsTakeUnitsAndBareSeconds() {
        assertThat(parse("--duration", "45").duration()).isEqualTo(Duration.ofSeconds(45));
        assertThat(parse("--duration", "1.5s").duration()).isEqualTo(Duration.ofMillis(1500));
        assertThat(parse("--duration", "250ms").duration()).isEqualTo(Duration.ofMillis(250));
        assertThat(parse("--duration", "1h").duration()).isEqualTo(Duration.ofHours(1));
        assertInvalid("--duration", "soon", "is not a duration such as 30s, 2m or 500ms");
        assertInvalid("--timeout", "0s", "is not a positive duration");
    }

    @Test
    void theJobControlWorkloadsRunOnlyWhenNamedAfterTheOthers() {
        assertThat(parse().workloads()).doesNotContain(Workload.PRIORITIES, Workload.DELAYED, Workload.DELAYED_IDLE);
        assertThat(parse("delayed-idle", "delayed", "priorities", "burst").workloads())
                .containsExactly(Workload.BURST, Workload.PRIORITIES, Workload.DELAYED, Workload.DELAYED_IDLE);
        assertThat(parse("burst", "priorities", "delayed", "delayed-idle", "--concurrency", "16,64").runs())
                .containsExactly(
                        new BenchOptions.Run(Workload.BURST, 16, "burst c=16"),
                        new BenchOptions.Run(Workload.BURST, 64, "burst c=64"),
                        new BenchOptions.Run(Workload.PRIORITIES, 64, "priorities"),
                        new BenchOptions.Run(Workload.DELAYED, 0, "delayed"),
                        new BenchOptions.Run(Workload.DELAYED_IDLE, 0, "delayed-idle"));
    }

    @Test
    void delayedDefaultsToTwoThousandJobsOverTwentySecondsDelayedTwoToEightSeconds() {
        BenchOptions o = parse("delayed");
        assertThat(o.delayedJobs()).isEqualTo(2_000);
        assertThat(o.delayedOver()).isEqualTo(Duration.ofSeconds(20));
        assertThat(o.minDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(o.maxDelay()).isEqualTo(Duration.ofSeconds(8));
        assertThat(o.delayedSchedule().rate()).isEqualTo(100);
        assertThat(o.delayedSchedule().count()).isEqualTo(2_000);
        assertThat(o.idleRows()).isEqualTo(1_000_000);
        assertThat(o.idleWindow()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void delayedAndIdleOptionsAreRead() {
        BenchOptions o = parse("delayed", "delayed-idle", "--delayed-jobs", "500", "--delayed-over", "10s",
                "--delay-min", "0", "--delay-max", "1500ms", "--idle-rows", "1e5", "--idle-window", "5s");
        assertThat(o.delayedJobs()).isEqualTo(500);
        assertThat(o.delayedOver()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.delayedSchedule().rate()).isEqualTo(50);
        assertThat(o.minDelay()).isZero();
        assertThat(o.maxDelay()).isEqualTo(Duration.ofMillis(1500));
        assertThat(o.idleRows()).isEqualTo(100_000);
        assertThat(o.idleWindow()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void cancelRunsOnlyWhenNamedLastAtItsOwnConcurrency() {
        assertThat(parse().workloads()).doesNotContain(Workload.CANCEL);
        assertThat(parse("cancel", "burst", "delayed").runs()).containsExactly(
                new BenchOptions.Run(Workload.BURST, 64, "burst"),
                new BenchOptions.Run(Workload.DELAYED, 0, "delayed"),
                new BenchOptions.Run(Workload.CANCEL, Cancels.CONCURRENCY, "cancel"));
        assertThat(Cancels.CONCURRENCY).isEqualTo(16);
    }

    @Test
    void cancelDefaultsToFourHundredJobsHalfWaitingHalfRunning() {
        BenchOptions o = parse("cancel");
        assertThat(o.cancelJobs()).isEqualTo(BenchOptions.CANCEL_JOBS).isEqualTo(400);
        assertThat(o.cancelWaiting()).isEqualTo(200);
        assertThat(o.cancelRunning()).isEqualTo(200);
    }

    @Test
    void cancelJobsAreReadAndAnOddCountGivesTheWaitingGroupTheExtraJob() {
        BenchOptions o = parse("cancel", "--cancel-jobs", "5");
        assertThat(o.cancelJobs()).isEqualTo(5);
        assertThat(o.cancelWaiting()).isEqualTo(3);
        assertThat(o.cancelRunning()).isEqualTo(2);
        assertThat(parse("--cancel-jobs=1").cancelRunning()).isZero();
        assertThat(parse("--cancel-jobs", "3e3").cancelJobs()).isEqualTo(3_000);
        assertInvalid("--cancel-jobs", "0", "is not a positive number");
        assertInvalid("--cancel-jobs", "1.5", "is not a whole number");
    }

    @Test
    void notifyAndSchedulesRunOnlyWhenNamedLastAtTheirOwnConcurrency() {
        assertThat(parse().workloads()).doesNotContain(Workload.NOTIFY, Workload.SCHEDULES);
        assertThat(parse("schedules", "notify", "cancel", "burst").runs()).containsExactly(
                new BenchOptions.Run(Workload.BURST, 64, "burst"),
                new BenchOptions.Run(Workload.CANCEL, Cancels.CONCURRENCY, "cancel"),
                new BenchOptions.Run(Workload.NOTIFY, Notifications.CONCURRENCY, "notify"),
                new BenchOptions.Run(Workload.SCHEDULES, ScheduleTicks.CONCURRENCY, "schedules"));
    }

    @Test
    void notifyAndSchedulesDefaultToTenThousandAndATwoMinuteWindow() {
        BenchOptions o = parse("notify", "schedules");
        assertThat(o.notifyJobs()).isEqualTo(BenchOptions.NOTIFY_JOBS).isEqualTo(10_000);
        assertThat(o.schedules()).isEqualTo(BenchOptions.SCHEDULES).isEqualTo(10_000);
        assertThat(o.scheduleWindow()).isEqualTo(BenchOptions.SCHEDULE_WINDOW).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void notifyAndSchedulesOptionsAreReadAndBounded() {
        BenchOptions o = parse("notify", "schedules", "--notify-jobs", "2e3", "--schedules=500",
                "--schedule-window", "3m");
        assertThat(o.notifyJobs()).isEqualTo(2_000);
        assertThat(o.schedules()).isEqualTo(500);
        assertThat(o.scheduleWindow()).isEqualTo(Duration.ofMinutes(3));
        assertInvalid("--notify-jobs", "0", "is not a positive number");
        assertInvalid("--notify-jobs", "1.5", "is not a whole number");
        assertInvalid("--schedules", "-4", "is not a positive number");
        assertInvalid("--schedules", "many", "is not a number");
        assertInvalid("--schedule-window", "0s", "is not a positive duration");
    }

    @Test
    void anEmptyDelayRangeIsBadUsage() {
        assertThatThrownBy(() -> parse("delayed", "--delay-min", "5s", "--delay-max", "2s"))
                .isInstanceOf(ParameterException.class)
                .hasMessage("--delay-max (2000 ms) must not be shorter than --delay-min (5000 ms)");
        assertInvalid("--idle-rows", "0", "is not a positive number");
        assertInvalid("--delayed-over", "0s", "is not a positive duration");
    }

    @Test
    void badInputNamesTheOptionAndTheValue() {
        assertThatThrownBy(() -> parse("--jobs", "many")).isInstanceOf(ParameterException.class)
                .hasMessage("Invalid value for option '--jobs': 'many' is not a number");
        assertInvalid("--rate", "0", "is not a positive number");
        assertThatThrownBy(() -> parse("--concurrency", "-3"))
                .hasMessage("Invalid value for option '--concurrency' (C,...): '-3' is not a positive number");
        assertInvalid("--jobs", "1.5", "is not a whole number");
        assertInvalid("--baseline", "NaN", "is not a number");
        assertThatThrownBy(() -> parse("--jobs")).hasMessage("Missing required parameter for option '--jobs' (N)");
        assertThatThrownBy(() -> parse("--fast")).hasMessage("Unknown option: '--fast'");
        assertThatThrownBy(() -> parse("storm"))
                .hasMessage("unknown workload 'storm'; valid: burst, steady, sleepers, retries, priorities, delayed, "
                        + "delayed-idle, cancel, notify, schedules, workflow, limits, mixed, queues, purge");
    }
}
