package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.submission;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a workload's work spread over the replicas: counters before and after, execution rows per worker. */
class ReplicaShareTest {

    /** `./jobweaver up --schedulers 2 --workers 3`. */
    private static final PlatformState SCALED = new PlatformState("http://localhost:8080", 5432, 99, 98, List.of(
            new PlatformState.Instance("api-service", "http://localhost:8080", 10, 900),
            new PlatformState.Instance("scheduler-service", "http://localhost:8081", 11, 900),
            new PlatformState.Instance("scheduler-service-2", "http://localhost:8181", 12, 900),
            new PlatformState.Instance("worker-service", "http://localhost:8082", 13, 900),
            new PlatformState.Instance("worker-service-2", "http://localhost:8182", 14, 900),
            new PlatformState.Instance("worker-service-3", "http://localhost:8282", 15, 900)));

    private static String scheduler(double ingested, double dispatched, double completed) {
        return "# TYPE jobweaver_jobs_ingested_total counter\n"
                + "jobweaver_jobs_ingested_total " + ingested + "\n"
                + "jobweaver_jobs_dispatched_total " + dispatched + "\n"
                + "jobweaver_jobs_completed_total " + completed + "\n";
    }

    private static String api(double submitted, double applied) {
        return "jobweaver_jobs_submitted_total " + submitted + "\n"
                + "jobweaver_status_events_total{result=\"applied\"} " + applied + "\n"
                + "jobweaver_status_events_total{result=\"stale\"} 5.0\n";
    }

    private static ReplicaShare.Snapshot snapshot(Map<String, String> bodies) {
        return ReplicaShare.Snapshot.take(SCALED, bodies::get);
    }

    private static ReplicaShare.Row row(List<ReplicaShare.Row> rows, String replica, String counted) {
        return rows.stream().filter(r -> r.replica().equals(replica) && r.counted().equals(counted)).findFirst()
                .orElseThrow();
    }

    @Test
    void eachReplicasGrowthAndItsShareOfItsService() {
        ReplicaShare.Snapshot before = snapshot(Map.of(
                "http://localhost:8080/q/metrics", api(1_000, 2_000),
                "http://localhost:8081/q/metrics", scheduler(600, 600, 600),
                "http://localhost:8181/q/metrics", scheduler(400, 400, 400)));
        ReplicaShare.Snapshot after = snapshot(Map.of(
                "http://localhost:8080/q/metrics", api(21_000, 42_000),
                "http://localhost:8081/q/metrics", scheduler(13_600, 10_600, 13_933),
                "http://localhost:8181/q/metrics", scheduler(7_400, 10_400, 6_467)));
        Map<String, Long> executions = Map.of("worker-service", 6_000L, "worker-service-2", 8_000L,
                "worker-service-3", 6_000L);

        List<ReplicaShare.Row> rows = ReplicaShare.of(SCALED, before, after, executions);

        assertThat(rows).extracting(ReplicaShare.Row::counted).containsExactly("jobs submitted (202)",
                "status events applied", "jobs ingested", "jobs ingested", "attempts dispatched",
                "attempts dispatched", "jobs completed", "jobs completed", ReplicaShare.EXECUTIONS,
                ReplicaShare.EXECUTIONS, ReplicaShare.EXECUTIONS);
        assertThat(row(rows, "api-service", "jobs submitted (202)").count()).isEqualTo(20_000);
        assertThat(row(rows, "api-service", "jobs submitted (202)").share()).isEqualTo(1.0);
        assertThat(row(rows, "api-service", "status events applied").count()).as("stale events left out")
                .isEqualTo(40_000);
        assertThat(row(rows, "scheduler-service", "jobs ingested").share()).isEqualTo(0.65);
        assertThat(row(rows, "scheduler-service-2", "attempts dispatched").count()).isEqualTo(10_000);
        assertThat(row(rows, "scheduler-service-2", "attempts dispatched").share()).isEqualTo(0.5);
        assertThat(row(rows, "worker-service-2", ReplicaShare.EXECUTIONS).share()).isEqualTo(0.4);
        assertThat(row(rows, "worker-service-3", ReplicaShare.EXECUTIONS).service()).isEqualTo("worker-service");
        assertThat(ReplicaShare.scaledOut(rows)).isTrue();
    }

    @Test
    void aWorkerThatRanNothingHasNoShareAndAWorkerIdNotInThePlatformIsListedToo() {
        Map<String, Long> executions = new HashMap<>(Map.of("worker-service", 300L, "worker-service-4", 100L));
        List<ReplicaShare.Row> rows = ReplicaShare.of(SCALED, ReplicaShare.Snapshot.NONE, ReplicaShare.Snapshot.NONE,
                executions);
        assertThat(rows).extracting(ReplicaShare.Row::replica).containsExactly("worker-service",
                "worker-service-2", "worker-service-3", "worker-service-4");
        assertThat(row(rows, "worker-service-2", ReplicaShare.EXECUTIONS).count()).isZero();
        assertThat(row(rows, "worker-service", ReplicaShare.EXECUTIONS).share()).isEqualTo(0.75);
        assertThat(ReplicaShare.of(SCALED, ReplicaShare.Snapshot.NONE, ReplicaShare.Snapshot.NONE, null))
                .as("no counters and execution_attempts unreadable: nothing to say").isEmpty();
    }

    @Test
    void anUnreadOrRestartedInstanceHasNoCountAndTheOthersShareWhatWasCounted() {
        ReplicaShare.Snapshot before = snapshot(Map.of(
                "http://localhost:8081/q/metrics", scheduler(600, 600, 600),
                "http://localhost:8181/q/metrics", scheduler(400, 400, 400)));
        ReplicaShare.Snapshot after = snapshot(Map.of(
                "http://localhost:8081/q/metrics", scheduler(1_600, 1_600, 1_600),
                "http://localhost:8181/q/metrics", scheduler(100, 500, 500)));
        List<ReplicaShare.Row> rows = ReplicaShare.of(SCALED, before, after, Map.of());
        assertThat(rows).noneMatch(r -> r.service().equals("api-service"));
        assertThat(row(rows, "scheduler-service-2", "jobs ingested").count()).as("went back: restarted").isNaN();
        assertThat(row(rows, "scheduler-service", "jobs ingested").share()).isEqualTo(1.0);
        assertThat(row(rows, "scheduler-service", "attempts dispatched").share()).isCloseTo(1_000 / 1_100.0,
                within(1e-9));
        assertThat(ReplicaShare.cell(row(rows, "scheduler-service-2", "jobs ingested"))).isEqualTo("-");
        assertThat(ReplicaShare.cell(row(rows, "scheduler-service-2", "attempts dispatched")))
                .isEqualTo("100 (9.09%)");
    }

    @Test
    void aCounterThatAppearedDuringTheWorkloadStartedAtZero() {
        ReplicaShare.Snapshot before = snapshot(Map.of("http://localhost:8080/q/metrics", "# nothing yet\n"));
        ReplicaShare.Snapshot after = snapshot(Map.of("http://localhost:8080/q/metrics", api(50, 100)));
        assertThat(row(ReplicaShare.of(SCALED, before, after, null), "api-service", "jobs submitted (202)").count())
                .isEqualTo(50);
    }

    @Test
    void instancesAreGroupedByService() {
        assertThat(ReplicaShare.service("worker-service-2")).isEqualTo("worker-service");
        assertThat(ReplicaShare.service("worker-service-12")).isEqualTo("worker-service");
        assertThat(ReplicaShare.service("api-service")).isEqualTo("api-service");
    }

    @Test
    void onlyTheMetricsOfApiAndSchedulerInstancesAreRead() {
        List<String> asked = new ArrayList<>();
        ReplicaShare.Snapshot.take(SCALED, url -> {
            asked.add(url);
            return null;
        });
        assertThat(asked).containsExactly("http://localhost:8080/q/metrics", "http://localhost:8081/q/metrics",
                "http://localhost:8181/q/metrics");
    }

    @Test
    void theTableHasAColumnPerWorkloadAndIsLeftOutWithoutReplicas() {
        List<ReplicaShare.Row> burstRows = ReplicaShare.of(SCALED, ReplicaShare.Snapshot.NONE,
                ReplicaShare.Snapshot.NONE, Map.of("worker-service", 10L, "worker-service-2", 30L));
        List<ReplicaShare.Row> steadyRows = ReplicaShare.of(SCALED, ReplicaShare.Snapshot.NONE,
                ReplicaShare.Snapshot.NONE, Map.of("worker-service-3", 5L));
        WorkloadResult burst = WorkloadResult.of(Workload.BURST, submission(1), List.of(completed(JobKind.NOOP, 0,
                1, 2)), "").withReplicaShare(burstRows);
        WorkloadResult steady = WorkloadResult.of(Workload.STEADY, submission(1), List.of(completed(JobKind.NOOP, 0,
                1, 2)), "").withReplicaShare(steadyRows);

        String table = ReplicaShare.table(List.of(burst, steady)).render();

        assertThat(table.lines().findFirst().orElseThrow()).containsPattern("replica +counted +burst +steady");
        String executions = " +executions \\(execution_attempts\\) +";
        assertThat(table).containsPattern("worker-service-2" + executions + "30 \\(75%\\) +0 \\(0%\\)\n");
        assertThat(table).containsPattern("worker-service-3" + executions + "0 \\(0%\\) +5 \\(100%\\)\n");
        PlatformState single = Fixtures.platform();
        List<ReplicaShare.Row> alone = ReplicaShare.of(single, ReplicaShare.Snapshot.NONE,
                ReplicaShare.Snapshot.NONE, Map.of("worker-service", 40L));
        assertThat(ReplicaShare.scaledOut(alone)).isFalse();
        assertThat(ReplicaShare.table(List.of(burst.withReplicaShare(alone)))).isNull();
    }
}
