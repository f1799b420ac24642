package dev.jobweaver.scheduler.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The backlog gauges: tenants capped to the deepest backlogs, the rest summed as "other", gone series removed. */
class BacklogGaugesTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void beforeAnyRefreshEachPriorityHasAnEmptyOtherSeries() {
        new BacklogGauges(registry, 2);

        assertThat(depths()).isEqualTo(Map.of("HIGH/other", 0.0, "LOW/other", 0.0, "NORMAL/other", 0.0));
        assertThat(ages()).isEqualTo(Map.of("HIGH/other", 0.0, "LOW/other", 0.0, "NORMAL/other", 0.0));
    }

    @Test
    void theDeepestTenantsKeepTheirSeriesAndTheRestAreSummedAsOther() {
        BacklogGauges gauges = new BacklogGauges(registry, 2);

        gauges.update(List.of(
                row("NORMAL", "a", 50, 10), row("HIGH", "a", 5, 2),
                row("NORMAL", "b", 40, 30),
                row("NORMAL", "c", 7, 100), row("LOW", "c", 1, 5),
                row("NORMAL", "d", 3, 60)));

        // a (55) and b (40) are kept; c (8) and d (3) fold into other, with the oldest of their ages.
        assertThat(depths()).isEqualTo(Map.of(
                "NORMAL/a", 50.0, "HIGH/a", 5.0, "NORMAL/b", 40.0,
                "NORMAL/other", 10.0, "LOW/other", 1.0, "HIGH/other", 0.0));
        assertThat(ages()).containsEntry("NORMAL/other", 100.0).containsEntry("LOW/other", 5.0)
                .containsEntry("NORMAL/b", 30.0).containsEntry("HIGH/a", 2.0);
    }

    @Test
    void tiesAreBrokenByNameSoTheSeriesDoNotFlapBetweenRefreshes() {
        BacklogGauges gauges = new BacklogGauges(registry, 1);

        gauges.update(List.of(row("NORMAL", "zeta", 4, 1), row("NORMAL", "alpha", 4, 1)));

        assertThat(depths()).containsEntry("NORMAL/alpha", 4.0).containsEntry("NORMAL/other", 4.0)
                .doesNotContainKey("NORMAL/zeta");
    }

    @Test
    void aSeriesWhoseTenantNoLongerWaitsIsRemovedFromTheRegistry() {
        BacklogGauges gauges = new BacklogGauges(registry, 5);
        gauges.update(List.of(row("NORMAL", "a", 3, 1), row("HIGH", "b", 2, 1)));
        assertThat(depths()).containsKeys("NORMAL/a", "HIGH/b");

        gauges.update(List.of(row("HIGH", "b", 1, 4)));

        assertThat(depths()).doesNotContainKey("NORMAL/a").containsEntry("HIGH/b", 1.0);
        assertThat(ages()).doesNotContainKey("NORMAL/a").containsEntry("HIGH/b", 4.0);

        gauges.update(List.of());

        assertThat(depths()).isEqualTo(Map.of("HIGH/other", 0.0, "LOW/other", 0.0, "NORMAL/other", 0.0));
        assertThat(registry.getMeters()).hasSize(6);
    }

    @Test
    void aTenantPushedOutOfTheCapMovesIntoOther() {
        BacklogGauges gauges = new BacklogGauges(registry, 1);
        gauges.update(List.of(row("NORMAL", "a", 9, 1), row("NORMAL", "b", 1, 1)));
        assertThat(depths()).containsEntry("NORMAL/a", 9.0).containsEntry("NORMAL/other", 1.0);

        gauges.update(List.of(row("NORMAL", "a", 2, 1), row("NORMAL", "b", 8, 1)));

        assertThat(depths()).isEqualTo(Map.of("NORMAL/b", 8.0, "NORMAL/other", 2.0, "HIGH/other", 0.0,
                "LOW/other", 0.0));
    }

    @Test
    void aRealTenantNamedOtherIsCountedWithTheOthers() {
        BacklogGauges gauges = new BacklogGauges(registry, 3);

        gauges.update(List.of(row("LOW", "other", 6, 1), row("LOW", "x", 2, 1)));

        assertThat(depths()).containsEntry("LOW/other", 6.0).containsEntry("LOW/x", 2.0);
    }

    @Test
    void aCapOfZeroSumsEveryTenant() {
        BacklogGauges gauges = new BacklogGauges(registry, 0);

        gauges.update(List.of(row("HIGH", "a", 2, 7), row("HIGH", "b", 3, 9)));

        assertThat(depths()).isEqualTo(Map.of("HIGH/other", 5.0, "LOW/other", 0.0, "NORMAL/other", 0.0));
        assertThat(ages()).containsEntry("HIGH/other", 9.0);
        assertThatThrownBy(() -> new BacklogGauges(new SimpleMeterRegistry(), -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMetricsHaveThePrometheusNamesTheAlertsUse() {
        new BacklogGauges(registry, 1);

        assertThat(registry.find(BacklogGauges.DEPTH).gauges()).hasSize(3);
        assertThat(registry.find(BacklogGauges.OLDEST_AGE).gauges())
                .allSatisfy(g -> assertThat(g.getId().getBaseUnit()).isEqualTo("seconds"));
        io.micrometer.prometheus.PrometheusMeterRegistry prometheus =
                new io.micrometer.prometheus.PrometheusMeterRegistry(
                        io.micrometer.prometheus.PrometheusConfig.DEFAULT);
        new BacklogGauges(prometheus, 1).update(List.of(row("HIGH", "t", 1, 2)));
        assertThat(prometheus.scrape())
                .contains("jobweaver_jobs_pending_depth{priority=\"HIGH\",tenant=\"t\",} 1.0")
                .contains("jobweaver_jobs_pending_oldest_age_seconds{priority=\"HIGH\",tenant=\"t\",} 2.0");
    }

    private static BacklogRow row(String priority, String tenant, long depth, double age) {
        return new BacklogRow(priority, tenant, depth, age);
    }

    private Map<String, Double> depths() {
        return values(BacklogGauges.DEPTH);
    }

    private Map<String, Double> ages() {
        return values(BacklogGauges.OLDEST_AGE);
    }

    private Map<String, Double> values(String name) {
        Map<String, Double> values = new TreeMap<>();
        List<Gauge> gauges = new ArrayList<>(registry.find(name).gauges());
        for (Gauge gauge : gauges) {
            values.put(gauge.getId().getTag("priority") + "/" + gauge.getId().getTag("tenant"), gauge.value());
        }
        return values;
    }
}
