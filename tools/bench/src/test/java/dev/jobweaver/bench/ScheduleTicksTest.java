package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The schedules workload's figures: ticks due in the window against the jobs stored, tick lag, the metric. */
class ScheduleTicksTest {

    private static final Duration MINUTE = ScheduleTicks.INTERVAL;

    /** A schedule whose first tick is T0 + firstMs. */
    private static ScheduleTicks.Schedule schedule(long firstMs) {
        return new ScheduleTicks.Schedule(UUID.randomUUID(), 4.0, at(firstMs - 60_000), at(firstMs));
    }

    /** The job of {@code s}'s tick number {@code k}, stored {@code lagMs} after it. */
    private static ScheduleTicks.TickJob job(ScheduleTicks.Schedule s, int k, long lagMs) {
        Instant tick = s.nextRunAt().plus(MINUTE.multipliedBy(k));
        return new ScheduleTicks.TickJob(s.id(), tick, tick.plusMillis(lagMs));
    }

    private static ScheduleTicks of(List<ScheduleTicks.Schedule> schedules, Instant from, Instant to,
                                    List<ScheduleTicks.TickJob> jobs) {
        return ScheduleTicks.of(schedules, 0, 150.0, MINUTE, from, to, jobs, ScheduleTicks.SchedulerMetric.NONE,
                List.of(), schedules.size());
    }

    @Test
    void everyTickDueInTheWindowHasOneJobAndItsLagIsTheStoreAfterTheTick() {
        // window [60 s, 180 s]: first ticks at 30 s (ticks 90 and 150 in it) and 60 s (60, 120, 180: both ends count)
        ScheduleTicks.Schedule a = schedule(30_000);
        ScheduleTicks.Schedule b = schedule(60_000);
        List<ScheduleTicks.TickJob> jobs = List.of(job(a, 0, 5), job(a, 1, 10), job(a, 2, 20), job(b, 0, 30),
                job(b, 1, 40), job(b, 2, 50), job(b, 3, 60));
        ScheduleTicks t = of(List.of(a, b), at(60_000), at(180_000), jobs);
        assertThat(t.expectedTicks()).isEqualTo(5);
        assertThat(t.asExpected()).isEqualTo(5);
        assertThat(t.missing()).isZero();
        assertThat(t.duplicated()).isZero();
        assertThat(t.offGrid()).isZero();
        // the jobs of ticks outside the window (a at 30 s, b at 240 s) are left out
        assertThat(t.tickLag().count()).isEqualTo(5);
        assertThat(t.tickLag().max()).isEqualTo(50);
        assertThat(t.tickLag().p50()).isCloseTo(30, within(0.03));
        assertThat(t.correctness().ok()).isTrue();
        assertThat(t.correctness().summary()).isEqualTo("5/5 as expected, 0 lost, 0 duplicated, 0 unexpected");
        assertThat(t.window()).isEqualTo(Duration.ofMinutes(2));
        assertThat(t.createAnswer().p50()).isEqualTo(4);
    }

    @Test
    void aMissingTickADuplicatedOneAndAJobAtNoTick() {
        ScheduleTicks.Schedule a = schedule(60_000);
        ScheduleTicks.Schedule b = schedule(60_000);
        List<ScheduleTicks.TickJob> jobs = new ArrayList<>(List.of(job(a, 0, 5), job(a, 0, 7), job(b, 0, 5)));
        // b's second tick missing, a's second made at a time that is no tick of a
        jobs.add(new ScheduleTicks.TickJob(a.id(), at(125_000), at(125_010)));
        ScheduleTicks t = of(List.of(a, b), at(60_000), at(150_000), jobs);
        assertThat(t.expectedTicks()).isEqualTo(4);
        assertThat(t.asExpected()).isEqualTo(1);
        assertThat(t.duplicated()).isEqualTo(1);
        assertThat(t.missing()).isEqualTo(2);
        assertThat(t.offGrid()).isEqualTo(1);
        Correctness c = t.correctness();
        assertThat(c.ok()).isFalse();
        assertThat(c.lost()).isEqualTo(2);
        assertThat(c.duplicated()).isEqualTo(1);
        assertThat(c.unexpected()).isEqualTo(1);
        assertThat(c.examples()).contains(a.id() + " (schedule): a job for " + at(125_000) + ", which is no tick of it",
                a.id() + " (schedule): tick " + at(60_000) + ": 2 jobs",
                b.id() + " (schedule): tick " + at(120_000) + ": no job");
    }

    @Test
    void aTickStoredToTheMicrosecondIsStillItsTick() {
        ScheduleTicks.Schedule a = new ScheduleTicks.Schedule(UUID.randomUUID(), 4.0, at(0),
                at(60_000).plusNanos(123_456_789));
        ScheduleTicks.TickJob stored = new ScheduleTicks.TickJob(a.id(), at(60_000).plusNanos(123_456_000),
                at(60_200));
        ScheduleTicks t = of(List.of(a), at(60_000), at(100_000), List.of(stored));
        assertThat(t.asExpected()).isEqualTo(1);
        assertThat(t.offGrid()).isZero();
    }

    @Test
    void withoutNextRunAtTheFirstTickIsTheAnswerPlusTheInterval() {
        ScheduleTicks.Schedule a = new ScheduleTicks.Schedule(UUID.randomUUID(), 4.0, at(1_000), null);
        ScheduleTicks t = of(List.of(a), at(0), at(61_000), List.of(
                new ScheduleTicks.TickJob(a.id(), at(61_000), at(61_005))));
        assertThat(t.firstTickGuessed()).isEqualTo(1);
        assertThat(t.asExpected()).isEqualTo(1);
    }

    @Test
    void ticksInAWindowCountBothEnds() {
        assertThat(ScheduleTicks.ticks(at(30_000), MINUTE, at(60_000), at(180_000))).containsExactly(1L, 2L);
        assertThat(ScheduleTicks.ticks(at(60_000), MINUTE, at(60_000), at(180_000))).containsExactly(0L, 1L, 2L);
        assertThat(ScheduleTicks.ticks(at(200_000), MINUTE, at(60_000), at(180_000))).isEmpty();
        assertThat(ScheduleTicks.ticks(at(0), MINUTE, at(1), at(59_999))).isEmpty();
    }

    @Test
    void theBodyAsksForAnIntervalInSecondsAndANoOpJob() {
        assertThat(ScheduleTicks.body("b-1", MINUTE)).isEqualTo("{\"name\":\"b-1\",\"interval\":\"PT60S\","
                + "\"job\":{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
                + "\"message\":\"tick\"}]},\"maxRetryCount\":0}}");
    }

    @Test
    void theSchedulersMetricFromItsSummaryAndCounterAtBothEnds() {
        String before = """
                # TYPE jobweaver_schedule_tick_lag_seconds summary
                jobweaver_schedule_tick_lag_seconds{quantile="0.5",} 0.010
                jobweaver_schedule_tick_lag_seconds_count 100.0
                jobweaver_schedule_tick_lag_seconds_sum 1.0
                jobweaver_schedule_ticks_total{outcome="fired",} 100.0
                jobweaver_schedule_ticks_total{outcome="skipped",} 2.0
                """;
        String after = """
                jobweaver_schedule_tick_lag_seconds{quantile="0.5",} 0.012
                jobweaver_schedule_tick_lag_seconds{quantile="0.99",} 0.080
                jobweaver_schedule_tick_lag_seconds_count 300.0
                jobweaver_schedule_tick_lag_seconds_sum 4.0
                jobweaver_schedule_tick_lag_seconds_max 0.150
                jobweaver_schedule_ticks_total{outcome="fired",} 300.0
                jobweaver_schedule_ticks_total{outcome="skipped",} 2.0
                """;
        ScheduleTicks.SchedulerMetric m = ScheduleTicks.SchedulerMetric.of(
                Map.of("scheduler-service", PrometheusText.parse(before)),
                Map.of("scheduler-service", PrometheusText.parse(after)));
        assertThat(m.published()).isTrue();
        assertThat(m.quantilesMs()).containsOnlyKeys("0.5", "0.99");
        assertThat(m.quantilesMs().get("0.5")).isCloseTo(12, within(1e-9));
        assertThat(FeatureTables.quantile(m, 0.99)).isCloseTo(80, within(1e-9));
        assertThat(FeatureTables.quantile(m, 0.9)).isNaN();
        assertThat(m.count()).isEqualTo(200);
        assertThat(m.meanMs()).isCloseTo(15, within(1e-9));
        assertThat(m.maxMs()).isCloseTo(150, within(1e-9));
        assertThat(m.ticksByOutcome()).containsEntry("fired", 200.0).containsEntry("skipped", 0.0);

        ScheduleTicks.SchedulerMetric none = ScheduleTicks.SchedulerMetric.of(
                Map.of("scheduler-service", PrometheusText.parse("jobweaver_jobs_ingested_total 5\n")),
                Map.of("scheduler-service", PrometheusText.parse("jobweaver_jobs_ingested_total 9\n")));
        assertThat(none.published()).isFalse();
        assertThat(none.ticksByOutcome()).isEmpty();
    }
}
