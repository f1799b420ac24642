package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.ended;
import static dev.jobweaver.bench.Fixtures.submission;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;

/** The bursts of one run side by side, by concurrency: table, charts and JSON. */
class ConcurrencySweepTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code n} no-op jobs at {@code concurrency}, answered after {@code acceptMs}, completing evenly in a second. */
    private static WorkloadResult burst(int concurrency, int n, double acceptMs) {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            JobRecord j = completed(JobKind.NOOP, 0, 3, 1000L * (i + 1) / n);
            jobs.add(Fixtures.accepted(j, acceptMs));
        }
        return WorkloadResult.of(new BenchOptions.Run(Workload.BURST, concurrency, "burst c=" + concurrency),
                submission(n), jobs, "");
    }

    private static List<WorkloadResult> results() {
        WorkloadResult duplicated = WorkloadResult.of(new BenchOptions.Run(Workload.BURST, 16, "burst c=16"),
                submission(2), List.of(completed(JobKind.NOOP, 0, 3, 500), ended(JobKind.NOOP, "COMPLETED", 1, 2)),
                "");
        return List.of(burst(64, 400, 8), WorkloadResult.of(Workload.STEADY, submission(1),
                        List.of(completed(JobKind.NOOP, 0, 3, 10)), ""),
                burst(1, 100, 2.5), duplicated,
                WorkloadResult.unavailable(new BenchOptions.Run(Workload.BURST, 256, "burst c=256"), "failed"));
    }

    @Test
    void oneRowPerAvailableBurstByIncreasingConcurrency() {
        List<ConcurrencySweep.Row> rows = ConcurrencySweep.of(results());
        assertThat(rows).extracting(ConcurrencySweep.Row::concurrency).containsExactly(1, 16, 64);
        assertThat(rows.get(0).jobsPerSecond()).isEqualTo(100);
        assertThat(rows.get(0).post().p50()).isEqualTo(2.5);
        assertThat(rows.get(1).correctness().duplicated()).isEqualTo(1);
        assertThat(ConcurrencySweep.of(List.of())).isEmpty();
    }

    @Test
    void theTableHasThroughputPostAndStartPercentilesAndTheExactlyOnceCounts() {
        String table = ConcurrencySweep.table(ConcurrencySweep.of(results())).render();
        assertThat(table.lines().findFirst().orElseThrow()).isEqualTo("concurrency  jobs  jobs/s  POST p50 ms  "
                + "POST p99 ms  start p50 ms  start p99 ms  as expected  lost  duplicated  unexpected");
        assertThat(table).containsPattern("\n {10}1 +100 +100 +2\\.50 +2\\.50 +3 +3 +100 +0 +0 +0\n");
        assertThat(table).containsPattern("\n {9}16 +2 +4 .* +1 +0 +1 +0\n");
        assertThat(table).containsPattern("\n {9}64 +400 +400 +8 +8 ");
        assertThat(ConcurrencySweep.table(List.of())).isNull();
    }

    @Test
    void chartsShowThroughputAndPostLatencyPerConcurrencyAgainstTheTargets() throws Exception {
        String svg = ConcurrencySweep.charts(ConcurrencySweep.of(results()));
        assertThat(svg).contains("Burst throughput by concurrency", "target 2000 jobs/s at 64",
                "POST /api/jobs answer by concurrency", "p99 target 50 ms at 64", "p99 16: ");
        for (String chart : svg.split("(?<=</svg>\n)")) {
            // well-formed: each chart parses as XML; 3 throughput bars + 1 legend, 6 latency bars + 2 legends
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(chart.getBytes(StandardCharsets.UTF_8)));
            assertThat(doc.getElementsByTagName("rect").getLength()).isIn(4, 8);
        }
        assertThat(ConcurrencySweep.charts(ConcurrencySweep.of(List.of(burst(64, 10, 1))))).as("one burst: a table")
                .isEmpty();
    }

    @Test
    void jsonHasEveryFigurePerConcurrency() {
        ArrayNode array = JSON.createArrayNode();
        ConcurrencySweep.json(array, ConcurrencySweep.of(results()));
        assertThat(array).hasSize(3);
        JsonNode one = array.get(0);
        assertThat(one.path("concurrency").asInt()).isEqualTo(1);
        assertThat(one.path("accepted").asInt()).isEqualTo(100);
        assertThat(one.path("throughputJobsPerSecond").asDouble()).isEqualTo(100.0);
        assertThat(one.at("/postMs/p50").asDouble()).isEqualTo(2.5);
        assertThat(one.at("/postMs/p99").asDouble()).isEqualTo(2.5);
        assertThat(one.at("/submitToStartMs/p50").asDouble()).isEqualTo(3.0);
        assertThat(one.at("/correctness/ok").asBoolean()).isTrue();
        assertThat(array.get(1).at("/correctness/duplicated").asInt()).isEqualTo(1);
        assertThat(array.get(1).at("/correctness/ok").asBoolean()).isFalse();
    }
}
