package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The limits workload's options, how many jobs ran at once from their intervals, its figures and correctness, and its
 * requests against a stub API: the limits set, waited for and removed, also when the workload fails.
 */
class LimitsBenchTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CWD = Path.of("/r");

    @AutoClose
    private StubApi api;
    /** The limit the stub API stored last: what the fake scheduler holds. */
    private final AtomicReference<Integer> stored = new AtomicReference<>();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    private static TenantLimits.Interval interval(long startMs, Long endMs) {
        return new TenantLimits.Interval(UUID.randomUUID(), Fixtures.at(startMs),
                endMs == null ? null : Fixtures.at(endMs));
    }

    private static int max(TenantLimits.Interval... intervals) {
        return TenantLimits.sweep(List.of(intervals), Integer.MAX_VALUE).max();
    }

    @Test
    void overlappingIntervalsCountTogether() {
        assertThat(max(interval(0, 100L), interval(50, 150L), interval(120, 200L))).isEqualTo(2);
        assertThat(max(interval(0, 100L), interval(10, 110L), interval(20, 120L), interval(99, 130L))).isEqualTo(4);
    }

    @Test
    void anIntervalEndingWhereAnotherStartsDoesNotOverlapIt() {
        assertThat(max(interval(0, 10L), interval(10, 20L), interval(20, 30L))).isEqualTo(1);
        // in any order
        assertThat(max(interval(20, 30L), interval(0, 10L), interval(10, 20L))).isEqualTo(1);
        assertThat(max(interval(0, 10L), interval(9, 20L))).isEqualTo(2);
    }

    @Test
    void nestedIntervalsCountEachLevel() {
        assertThat(max(interval(0, 100L), interval(10, 90L), interval(20, 30L), interval(40, 50L)))
                .isEqualTo(3);
        assertThat(max(interval(0, 100L), interval(10, 90L), interval(20, 80L), interval(30, 70L)))
                .isEqualTo(4);
    }

    @Test
    void anUnfinishedJobHoldsItsSlotAndAnInstantOneCountsAtItsStart() {
        assertThat(max(interval(0, null), interval(500, 600L), interval(1_000, 1_100L))).isEqualTo(2);
        assertThat(max(interval(0, 10L), interval(10, 10L), interval(10, 20L))).isEqualTo(2);
        assertThat(max(interval(5, 5L))).isEqualTo(1);
        assertThat(max()).isZero();
    }

    @Test
    void theStartsBeyondTheLimitAreNamedEvenWhenTheyStartTogether() {
        List<TenantLimits.Interval> together = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            together.add(interval(0, 200L));
        }
        TenantLimits.Sweep sweep = TenantLimits.sweep(together, 5);
        assertThat(sweep.max()).isEqualTo(7);
        assertThat(sweep.overLimit()).hasSize(2);
        TenantLimits.Sweep within = TenantLimits.sweep(List.of(interval(0, 200L), interval(200, 400L)), 1);
        assertThat(within.max()).isEqualTo(1);
        assertThat(within.overLimit()).isEmpty();
    }

    /** {@code count} jobs of 200 ms in waves of {@code perWave}, each wave starting when the one before finished. */
    static List<JobRecord> waves(int count, int perWave) {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long start = 100 + (long) (i / perWave) * 200;
            jobs.add(Fixtures.completed(JobKind.SHORT_SLEEPER, 0, start, start + 200));
        }
        return jobs;
    }

    @Test
    void theFiguresOfJobsWithinTheLimit() {
        TenantLimits limits = TenantLimits.of("t", 2_048, 5, 200, 0, waves(20, 5));
        assertThat(limits.maxRunning()).isEqualTo(5);
        assertThat(limits.exceeded()).isFalse();
        assertThat(limits.overLimit()).isEmpty();
        // 20 jobs from the first start (100 ms) to the last finish (900 ms)
        assertThat(limits.jobsPerSecond()).isEqualTo(25.0);
        assertThat(limits.idealPerSecond()).isEqualTo(25.0);
        assertThat(limits.shareOfIdeal()).isEqualTo(1.0);
        assertThat(limits.completed()).isEqualTo(20);
        assertThat(limits.correctness().ok()).isTrue();
        assertThat(limits.correctness().asExpected()).isEqualTo(20);
    }

    @Test
    void jobsBeyondTheLimitAreUnexpectedAndNamed() {
        List<JobRecord> jobs = new ArrayList<>(waves(10, 5));
        // beside the first wave only: the second starts as it ends
        JobRecord extra = Fixtures.completed(JobKind.SHORT_SLEEPER, 0, 150, 300);
        jobs.add(extra);
        TenantLimits limits = TenantLimits.of("t", 2_048, 5, 200, 0, jobs);
        assertThat(limits.maxRunning()).isEqualTo(6);
        assertThat(limits.exceeded()).isTrue();
        assertThat(limits.overLimit()).containsExactly(extra.jobId());
        Correctness c = limits.correctness();
        assertThat(c.ok()).isFalse();
        assertThat(c.accepted()).isEqualTo(11);
        assertThat(c.asExpected()).isEqualTo(10);
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.examples().getFirst()).isEqualTo("1 jobs of tenant t started while 5 ran already (maxRunning 5;"
                + " at most 6 at once), e.g. " + extra.jobId());
    }

    @Test
    void aJobStartedWhileTheSlotsWereFullCountsEvenWhenTheFirstToStartEndsFirst() {
        // the sixth start makes six at once; the second wave's last start finds the extra job still running
        List<JobRecord> jobs = new ArrayList<>(waves(10, 5));
        jobs.add(Fixtures.completed(JobKind.SHORT_SLEEPER, 0, 150, 350));
        TenantLimits limits = TenantLimits.of("t", 2_048, 5, 200, 0, jobs);
        assertThat(limits.maxRunning()).isEqualTo(6);
        assertThat(limits.overLimit()).hasSize(2);
        assertThat(limits.correctness().unexpected()).isEqualTo(2);
    }

    @Test
    void aJobOverTheLimitThatFailedIsCountedOnce() {
        List<JobRecord> jobs = new ArrayList<>(waves(5, 5));
        JobRecord failed = new JobRecord(UUID.randomUUID(), JobKind.SHORT_SLEEPER, Fixtures.T0, 5, null, null, null,
                Fixtures.at(120), Fixtures.at(320), null, null, "FAILED", 1, 1);
        jobs.add(failed);
        Correctness c = TenantLimits.of("t", 2_048, 5, 200, 0, jobs).correctness();
        assertThat(c.asExpected()).isEqualTo(5);
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.duplicated()).isZero();
    }

    @Test
    void noStartedJobMeansNoRate() {
        TenantLimits limits = TenantLimits.of("t", 2_048, 5, 200, 3, List.of());
        assertThat(limits.measured()).isFalse();
        assertThat(limits.jobsPerSecond()).isNaN();
        assertThat(limits.maxRunning()).isZero();
        assertThat(limits.correctness().ok()).isTrue();
    }

    @Test
    void theWorkloadRunsOnlyWhenNamedAtTheMainConcurrencyWithBoundedOptions() {
        BenchOptions defaults = BenchOptions.parse(List.of(), CWD);
        assertThat(defaults.workloads()).doesNotContain(Workload.LIMITS);
        assertThat(defaults.limitsBurst()).isEqualTo(BenchOptions.LIMITS_BURST).isEqualTo(2_048);
        assertThat(defaults.limitsBinding()).isEqualTo(BenchOptions.LIMITS_BINDING).isEqualTo(5);
        assertThat(defaults.limitsJobs()).isEqualTo(BenchOptions.LIMITS_JOBS).isEqualTo(200);
        assertThat(BenchOptions.parse(List.of("limits", "burst", "--concurrency", "16,64"), CWD).runs())
                .containsExactly(new BenchOptions.Run(Workload.BURST, 16, "burst c=16"),
                        new BenchOptions.Run(Workload.BURST, 64, "burst c=64"),
                        new BenchOptions.Run(Workload.LIMITS, 64, "limits"));
        BenchOptions o = BenchOptions.parse(List.of("limits", "--limits-burst", "1000", "--limits-binding=3",
                "--limits-jobs", "1e3"), CWD);
        assertThat(o.limitsBurst()).isEqualTo(1_000);
        assertThat(o.limitsBinding()).isEqualTo(3);
        assertThat(o.limitsJobs()).isEqualTo(1_000);
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--limits-binding", "0"), CWD))
                .hasMessage("Invalid value for option '--limits-binding': '0' is not a positive number");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--limits-jobs", "2.5"), CWD))
                .hasMessage("Invalid value for option '--limits-jobs': '2.5' is not a whole number");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--limits-burst", "100001"), CWD))
                .hasMessage("--limits-burst (100001) must be at most 100000, the largest maxRunning the API "
                        + "takes");
    }

    @Test
    void theJobsCarryTheTenantAndTheBindingOnesSleep200Ms() throws Exception {
        JsonNode body = JSON.readTree(Control.tenant(LimitsBench.TENANT).body(JobKind.NOOP));
        assertThat(body.get("tenant").asText()).isEqualTo("bench-limited");
        assertThat(body.has("priority")).isFalse();
        assertThat(body.has("delayMs")).isFalse();
        JsonNode sleeper = JSON.readTree(Control.tenant("t").body(JobKind.SHORT_SLEEPER));
        assertThat(sleeper.at("/payload/steps/0/action").asText()).isEqualTo("SLEEP");
        assertThat(sleeper.at("/payload/steps/0/durationMs").asLong()).isEqualTo(JobKind.SHORT_SLEEP_MS)
                .isEqualTo(200);
        assertThat(JobKind.SHORT_SLEEPER.expectedAttempts()).isEqualTo(1);
        assertThat(LimitsBench.TENANT).matches("[a-z0-9][a-z0-9-]{0,62}");
    }

    /** The workload against a stub API whose limits {@code answer} decides, with {@code jobs} behind it. */
    private LimitsBench bench(int putStatus, LimitsBench.Jobs jobs) throws IOException {
        api = StubApi.serving("/api/", (exchange, body) -> {
            int status;
            if (exchange.getRequestMethod().equals("PUT")) {
                status = putStatus;
                Matcher m = Pattern.compile("\"maxRunning\":(\\d+)").matcher(body);
                if (status == 200 && m.find()) {
                    stored.set(Integer.valueOf(m.group(1)));
                }
            } else {
                stored.set(null);
                status = 204;
            }
            StubApi.answer(exchange, status, status == 200 ? body : status == 204 ? "" : "{\"errorCode\":\"X\"}");
        });
        BenchOptions options = BenchOptions.parse(List.of("limits", "--jobs", "4", "--limits-jobs", "10",
                "--timeout", "5s"), CWD);
        return new LimitsBench(options, api.client(), jobs, new PrintStream(console, true));
    }

    /** Jobs that record which limit the scheduler held when each batch was sent. */
    private class FakeJobs implements LimitsBench.Jobs {
        final List<String> sent = new CopyOnWriteArrayList<>();

        @Override
        public WorkloadResult burst(BenchOptions.Run run, Control control) {
            sent.add("burst " + control.tenant() + " under " + stored.get());
            return WorkloadResult.of(run, Fixtures.submission(2), List.of(
                    Fixtures.completed(JobKind.NOOP, 0, 1, 250), Fixtures.completed(JobKind.NOOP, 0, 1, 500)), "");
        }

        @Override
        public LimitsBench.Batch send(String label, int count, int concurrency, JobKind kind, Control control) {
            sent.add(label + " " + count + " " + kind + " " + control.tenant() + " under " + stored.get());
            return new LimitsBench.Batch(Fixtures.submission(count), waves(count, 5));
        }

        @Override
        public Integer schedulerLimit(String tenant) {
            return stored.get();
        }
    }

    @Test
    void eachLimitIsHeldByTheSchedulerBeforeItsJobsAndRemovedAfter() throws IOException {
        FakeJobs jobs = new FakeJobs();
        WorkloadResult result = bench(200, jobs).run(new BenchOptions.Run(Workload.LIMITS, 64, "limits"));
        assertThat(api.requests).containsExactly(
                "PUT /api/tenants/bench-limited/limits {\"maxRunning\":2048}",
                "PUT /api/tenants/bench-limited/limits {\"maxRunning\":5}",
                "DELETE /api/tenants/bench-limited/limits ");
        assertThat(jobs.sent).containsExactly("burst bench-limited under 2048",
                "limits binding 10 SHORT_SLEEPER bench-limited under 5");
        assertThat(result.available()).isTrue();
        assertThat(result.limits().maxRunning()).isEqualTo(5);
        assertThat(result.limits().freeLimit()).isEqualTo(2_048);
        assertThat(result.correctness().accepted()).isEqualTo(12);
        assertThat(result.correctness().ok()).isTrue();
        assertThat(result.note()).startsWith("every job sent with tenant bench-limited; burst: 4 no-op jobs, 64 in "
                + "flight, under maxRunning 2048").contains("binding: 10 jobs sleeping 200 ms under maxRunning 5")
                .contains("the scheduler held each limit ");
    }

    @Test
    void theLimitIsRemovedWhenTheWorkloadFails() throws IOException {
        LimitsBench bench = bench(200, new FakeJobs() {
            @Override
            public WorkloadResult burst(BenchOptions.Run run, Control control) {
                throw new IllegalStateException("database gone");
            }
        });
        assertThatThrownBy(() -> bench.run(new BenchOptions.Run(Workload.LIMITS, 64, "limits")))
                .hasMessage("database gone");
        assertThat(api.requests).last().asString().isEqualTo("DELETE /api/tenants/bench-limited/limits ");
        assertThat(stored.get()).isNull();
    }

    @Test
    void anApiWithoutTenantLimitsMakesTheWorkloadUnavailable() throws IOException {
        FakeJobs jobs = new FakeJobs();
        StubApi.assertUnavailable(bench(404, jobs).run(new BenchOptions.Run(Workload.LIMITS, 64, "limits")))
                .isEqualTo("the API answers 404 to PUT /api/tenants/{tenant}/limits ({\"errorCode\":\"X\"}); the "
                        + "platform does not support tenant limits");
        assertThat(api.requests).hasSize(1);
        assertThat(jobs.sent).isEmpty();
    }

    @Test
    void aSchedulerThatNeverHoldsTheLimitIsNoted() throws IOException {
        LimitsBench bench = bench(200, new FakeJobs());
        List<String> notes = new ArrayList<>();
        stored.set(7);
        assertThat(bench.awaitScheduler("limits", 5, java.time.Duration.ofMillis(100), notes)).isEqualTo(-1);
        assertThat(notes).containsExactly("the scheduler did not hold maxRunning 5 of tenant bench-limited within 100 "
                + "ms of the API's answer (it held 7)");
        notes.clear();
        LimitsBench unreadable = new LimitsBench(BenchOptions.parse(List.of("limits"), CWD), api.client(), new FakeJobs() {
            @Override
            public Integer schedulerLimit(String tenant) {
                throw new IllegalStateException("relation \"tenant_limits\" does not exist");
            }
        }, new PrintStream(console, true));
        assertThat(unreadable.awaitScheduler("limits", 5, java.time.Duration.ofSeconds(5), notes)).isEqualTo(-1);
        assertThat(notes).singleElement().asString().startsWith("the scheduler's copy of the limit could not be "
                + "read (relation \"tenant_limits\" does not exist)");
    }
}
