package dev.jobweaver.scheduler.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.common.worker.WorkerStore.LiveWorker;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The queue gauges: depth, oldest age and live workers by queue; a queue that empties reads 0, then goes; the queues
 * beyond the cap are summed under {@code _other}; the workers are unknown before the first read.
 */
class QueueGaugesTest {

    private static final Instant START = Instant.parse("2026-11-30T10:00:00Z");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MutableClock clock = new MutableClock();

    @Test
    void beforeAnyRefreshTheDefaultQueueHasEmptySeriesAndUnknownWorkers() {
        gauges(5);

        assertThat(depths()).isEqualTo(Map.of("default", 0.0));
        assertThat(ages()).isEqualTo(Map.of("default", 0.0));
        assertThat(workers().get("default")).isNaN();
    }

    @Test
    void eachQueueGetsItsDepthOldestAgeAndTheLiveWorkersThatServeIt() {
        QueueGauges gauges = gauges(5);

        gauges.update(List.of(row("images", 7, 40), row("default", 2, 3), row("reports", 1, 900)),
                live(worker("w1", "images", "default"), worker("w2", "images"), worker("w3", "exports")));

        assertThat(depths()).isEqualTo(Map.of("images", 7.0, "default", 2.0, "reports", 1.0, "exports", 0.0));
        assertThat(ages()).containsEntry("images", 40.0).containsEntry("reports", 900.0).containsEntry("exports", 0.0);
        assertThat(workers()).isEqualTo(Map.of("images", 2.0, "default", 1.0, "reports", 0.0, "exports", 1.0));
    }

    @Test
    void aWorkerThatNamesAQueueTwiceCountsOnce() {
        QueueGauges gauges = gauges(5);

        gauges.update(List.of(), live(worker("w1", "images", "images")));

        assertThat(workers()).containsEntry("images", 1.0);
    }

    @Test
    void aQueueWhoseJobsAreGoneDropsToZeroAndItsSeriesGoesAfterTheRetention() {
        QueueGauges gauges = gauges(5);
        gauges.update(List.of(row("images", 7, 40)), live(worker("w1", "images")));

        clock.advance(Duration.ofSeconds(10));
        gauges.update(List.of(), live());

        // no stale depth, age or worker count: the series read 0 while they stay
        assertThat(depths()).containsEntry("images", 0.0);
        assertThat(ages()).containsEntry("images", 0.0);
        assertThat(workers()).containsEntry("images", 0.0);

        // the retention counts from the last refresh that saw a job or a worker
        clock.advance(QueueGauges.RETAIN.minusSeconds(10));
        gauges.update(List.of(), live());
        assertThat(depths()).containsKey("images");

        clock.advance(Duration.ofSeconds(1));
        gauges.update(List.of(), live());
        assertThat(depths()).isEqualTo(Map.of("default", 0.0));
        assertThat(registry.getMeters()).hasSize(3);
    }

    @Test
    void theDefaultQueueStaysWhenItHasNothingForLong() {
        QueueGauges gauges = gauges(5);
        gauges.update(List.of(row("default", 3, 1)), live());

        clock.advance(QueueGauges.RETAIN.multipliedBy(3));
        gauges.update(List.of(), live());

        assertThat(depths()).isEqualTo(Map.of("default", 0.0));
        assertThat(workers()).isEqualTo(Map.of("default", 0.0));
    }

    @Test
    void aQueueThatWaitsAgainWithinTheRetentionKeepsItsSeries() {
        QueueGauges gauges = gauges(5);
        gauges.update(List.of(row("images", 1, 1)), live());
        clock.advance(QueueGauges.RETAIN.minusSeconds(1));
        gauges.update(List.of(row("images", 4, 2)), live());

        clock.advance(QueueGauges.RETAIN.minusSeconds(1));
        gauges.update(List.of(), live());

        assertThat(depths()).containsEntry("images", 0.0);
    }

    @Test
    void theDeepestWorkerlessQueuesKeepTheirSeriesAndTheRestAreSummedAsOther() {
        QueueGauges gauges = gauges(2);

        gauges.update(List.of(row("a", 50, 10), row("b", 40, 30), row("c", 7, 100), row("d", 3, 60),
                        row("served", 1, 1), row("default", 1, 2)),
                live(worker("w1", "served")));

        // served and default always have their own; a and b are the deepest of the others; c and d fold into _other
        assertThat(depths()).isEqualTo(Map.of("a", 50.0, "b", 40.0, "served", 1.0, "default", 1.0,
                QueueGauges.OTHER, 10.0));
        assertThat(ages()).containsEntry(QueueGauges.OTHER, 100.0);
        assertThat(workers()).containsEntry(QueueGauges.OTHER, 0.0).containsEntry("served", 1.0);
    }

    @Test
    void aQueuePushedOutOfTheCapReadsZeroWhileItsJobsCountUnderOther() {
        QueueGauges gauges = gauges(1);
        gauges.update(List.of(row("a", 9, 1), row("b", 1, 1)), live());
        assertThat(depths()).containsEntry("a", 9.0).containsEntry(QueueGauges.OTHER, 1.0);

        gauges.update(List.of(row("a", 2, 1), row("b", 8, 1)), live());

        assertThat(depths()).containsEntry("b", 8.0).containsEntry("a", 0.0).containsEntry(QueueGauges.OTHER, 2.0);
        assertThat(sum(depths())).isEqualTo(10.0);
    }

    @Test
    void tiesAreBrokenByNameSoTheSeriesDoNotFlapBetweenRefreshes() {
        QueueGauges gauges = gauges(1);

        gauges.update(List.of(row("zeta", 4, 1), row("alpha", 4, 1)), live());

        assertThat(depths()).containsEntry("alpha", 4.0).containsEntry(QueueGauges.OTHER, 4.0)
                .doesNotContainKey("zeta");
        assertThatThrownBy(() -> new QueueGauges(new SimpleMeterRegistry(), -1, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whileTheWorkersAreUnknownTheWorkerGaugesAreNaNNotZero() {
        QueueGauges gauges = gauges(5);

        gauges.update(List.of(row("images", 3, 5)), LiveWorkers.UNKNOWN);

        assertThat(depths()).containsEntry("images", 3.0);
        assertThat(workers().get("images")).isNaN();
        assertThat(workers().get("default")).isNaN();

        gauges.update(List.of(row("images", 3, 5)), live());
        assertThat(workers()).containsEntry("images", 0.0).containsEntry("default", 0.0);
    }

    @Test
    void theMetricsHaveThePrometheusNamesTheAlertsUse() {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new QueueGauges(prometheus, 5, clock).update(List.of(row("images", 1, 2)), live(worker("w", "images")));

        assertThat(prometheus.scrape())
                .contains("jobweaver_queue_pending_depth{queue=\"images\",} 1.0")
                .contains("jobweaver_queue_pending_oldest_age_seconds{queue=\"images\",} 2.0")
                .contains("jobweaver_queue_workers{queue=\"images\",} 1.0")
                .contains("jobweaver_queue_workers{queue=\"default\",} 0.0");
    }

    private QueueGauges gauges(int maxQueues) {
        return new QueueGauges(registry, maxQueues, clock);
    }

    private static QueueRow row(String queue, long depth, double age) {
        return new QueueRow(queue, depth, age);
    }

    private static LiveWorker worker(String id, String... queues) {
        return new LiveWorker(id, Arrays.asList(queues), List.of("SIMULATION"), 4, START, START);
    }

    private static LiveWorkers live(LiveWorker... workers) {
        return LiveWorkers.of(List.of(workers));
    }

    private static double sum(Map<String, Double> values) {
        return values.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    private Map<String, Double> depths() {
        return values(QueueGauges.DEPTH);
    }

    private Map<String, Double> ages() {
        return values(QueueGauges.OLDEST_AGE);
    }

    private Map<String, Double> workers() {
        return values(QueueGauges.WORKERS);
    }

    private Map<String, Double> values(String name) {
        Map<String, Double> values = new TreeMap<>();
        for (Gauge gauge : registry.find(name).gauges()) {
            values.put(gauge.getId().getTag("queue"), gauge.value());
        }
        return values;
    }

    /** A clock the test moves. */
    private static final class MutableClock extends Clock {
        private Instant now = START;

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
