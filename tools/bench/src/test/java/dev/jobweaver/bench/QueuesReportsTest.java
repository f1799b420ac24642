package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The queues figures in the console, summary.json, report.html and the targets. */
class QueuesReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, Set<String>> POOLS = Map.of("default", Set.of("worker-1"),
            "bench", Set.of("worker-bench"));

    /** Two no-op jobs, the last finishing {@code lastMs} after the first submit: 2 / lastMs jobs per second. */
    private static WorkloadResult burst(long lastMs) {
        return WorkloadResult.of(new BenchOptions.Run(Workload.BURST, 64, "burst"), Fixtures.submission(2),
                List.of(Fixtures.completed(JobKind.NOOP, 0, 10, lastMs / 2), Fixtures.completed(JobKind.NOOP, 0, 20,
                        lastMs)), "");
    }

    /**
     * The queues run over {@code lastMs}: one job on each queue, the default one's run by {@code defaultWorker}, the
     * bench one's by the pool.
     */
    private static WorkloadResult queues(long lastMs, String defaultWorker) {
        List<JobRecord> jobs = List.of(
                Fixtures.completed(JobKind.NOOP, 0, 10, lastMs / 2).withControl(QueuesBench.control(0), null, null),
                Fixtures.completed(JobKind.NOOP, 0, 20, lastMs).withControl(QueuesBench.control(1), null, null));
        Map<UUID, String> ranOn = Map.of(jobs.get(0).jobId(), defaultWorker, jobs.get(1).jobId(), "worker-bench");
        QueueRuns runs = QueueRuns.of(QueuesBench.QUEUES, "default", jobs, POOLS, ids -> {
            Map<String, Long> rows = new TreeMap<>();
            ids.forEach(id -> rows.merge(ranOn.get(id), 1L, Long::sum));
            return rows;
        });
        return WorkloadResult.of(new BenchOptions.Run(Workload.QUEUES, 64, "queues"), Fixtures.submission(2), jobs,
                "").withQueues(runs, "by turns");
    }

    @Test
    void theConsoleHasTheQueuesTableAndTheTargetsRows() {
        BenchRun run = Fixtures.run(List.of("burst", "queues"), burst(500), queues(550, "worker-1"));
        String text = ConsoleReport.render(run);
        assertThat(text).contains(FeatureTables.QUEUES_TITLE);
        // 2 jobs over 550 ms: 3.64 jobs/s, 90.9% of the burst's 4; each queue 1 job
        assertThat(text).containsPattern("\nqueues +all +2 +2 +3\\.64 +90\\.9% +2 +0 *\n");
        assertThat(text).containsPattern("\nqueues +default +worker-1 +1 +1 +3\\.64 +1 +0 *\n");
        assertThat(text).containsPattern("\nqueues +bench +worker-bench +1 +1 +1\\.82 +1 +0 *\n");
        Fixtures.assertRow(target(run, "queues throughput"), "pass",
                "3.64 jobs/s = 90.9% of 4, 0 of 2 runs outside their queue's pool");
        Fixtures.assertRow(target(run, "queues correctness"), "pass",
                "4/4 as expected, 0 lost, 0 duplicated, 0 unexpected");
        assertThat(target(run, "queues correctness").goal()).contains("every execution row");
        assertThat(HtmlReport.render(run)).contains("<h2>Queues</h2>");
    }

    @Test
    void aRunOutsideItsPoolOrBelowEightyFivePercentIsAMiss() {
        BenchRun leaked = Fixtures.run(List.of("burst", "queues"), burst(500), queues(500, "worker-bench"));
        Fixtures.assertRow(target(leaked, "queues throughput"), "miss",
                "4 jobs/s = 100% of 4, 1 of 2 runs outside their queue's pool");
        assertThat(target(leaked, "queues correctness").verdict()).isEqualTo("miss");
        BenchRun slow = Fixtures.run(List.of("burst", "queues"), burst(500), queues(600, "worker-1"));
        Fixtures.assertRow(target(slow, "queues throughput"), "miss",
                "3.33 jobs/s = 83.3% of 4, 0 of 2 runs outside their queue's pool");
        BenchRun alone = Fixtures.run(List.of("queues", "--baseline", "4"), queues(550, "worker-1"));
        assertThat(target(alone, "queues throughput").verdict()).isEqualTo("pass");
        BenchRun none = Fixtures.run(List.of("queues"), queues(550, "worker-1"));
        assertThat(target(none, "queues throughput").verdict()).isNotEqualTo("pass").isNotEqualTo("miss");
        BenchRun unavailable = Fixtures.run(List.of("burst", "queues"), burst(500), WorkloadResult.unavailable(
                Workload.QUEUES, "no pool"));
        assertThat(target(unavailable, "queues throughput").measured()).isEqualTo("queues unavailable (see Notes)");
    }

    @Test
    void summaryJsonCarriesEachQueuesFigures() {
        BenchRun run = Fixtures.run(List.of("burst", "queues"), burst(500), queues(500, "worker-1"));
        JsonNode q = SummaryJson.of(JSON, run).at("/workloads/1/queues");
        assertThat(q.path("burstJobsPerSecond").asDouble()).isEqualTo(4);
        assertThat(q.path("ratioToBurst").asDouble()).isEqualTo(1);
        assertThat(q.path("runsRead").asBoolean()).isTrue();
        assertThat(q.path("runsOutsideTheirPool").asLong()).isZero();
        assertThat(q.at("/byQueue/bench/workers/0").asText()).isEqualTo("worker-bench");
        assertThat(q.at("/byQueue/bench/jobs").asInt()).isEqualTo(1);
        assertThat(q.at("/byQueue/bench/jobsPerSecond").asDouble()).isEqualTo(2);
        assertThat(q.at("/byQueue/default/runsByWorker/worker-1").asLong()).isEqualTo(1);
        assertThat(SummaryJson.of(JSON, run).at("/workloads/0/queues").isMissingNode()).isTrue();
        List<String> names = new ArrayList<>();
        q.path("byQueue").fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("default", "bench");
    }

    @Test
    void otherWorkloadsHaveNoQueuesTableNorRow() {
        BenchRun run = Fixtures.run(List.of("burst"), burst(500));
        assertThat(ConsoleReport.render(run)).doesNotContain(FeatureTables.QUEUES_TITLE);
        assertThat(run.targets()).noneMatch(t -> t.target().equals("queues throughput"));
    }
}
