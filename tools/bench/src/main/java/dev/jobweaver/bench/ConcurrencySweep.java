package dev.jobweaver.bench;

import static dev.jobweaver.bench.RawFiles.putNumber;
import static dev.jobweaver.bench.Targets.fmt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Comparator;
import java.util.List;

/**
 * The burst at each concurrency side by side ({@code --concurrency 1,16,64,256}): what a client of each size gets,
 * as a table for the console and the HTML report, two charts, and an array for {@code summary.json}.
 */
public final class ConcurrencySweep {

    private ConcurrencySweep() {
    }

    /**
     * One burst's figures.
     *
     * @param concurrency requests in flight at most, one connection each
     * @param offered jobs sent
     * @param accepted jobs answered 202
     * @param jobsPerSecond completed jobs / (last completion − first submission)
     * @param post how long {@code POST /api/jobs} took to answer 202, milliseconds
     * @param toStart submit to the first attempt's start, milliseconds
     * @param correctness whether every accepted job ran exactly once
     */
    public record Row(int concurrency, int offered, int accepted, double jobsPerSecond, Percentiles post,
                      Percentiles toStart, Correctness correctness) {
    }

    /** The available bursts of {@code results}, by increasing concurrency. */
    public static List<Row> of(List<WorkloadResult> results) {
        return results.stream()
                .filter(r -> r.available() && r.workload() == Workload.BURST)
                .sorted(Comparator.comparingInt(WorkloadResult::concurrency))
                .map(r -> new Row(r.concurrency(), r.submission().offered(), r.submission().accepted(),
                        r.throughput(), r.accept(), r.toStart(), r.correctness()))
                .toList();
    }

    /** One line per burst; null when there is none. */
    public static TextTable table(List<Row> rows) {
        TextTable table = new TextTable("concurrency", "jobs", "jobs/s", "POST p50 ms", "POST p99 ms",
                "start p50 ms", "start p99 ms", "as expected", "lost", "duplicated", "unexpected");
        return table.forEachOrNull(rows, r -> {
            Correctness c = r.correctness();
            table.row(Integer.toString(r.concurrency()), Integer.toString(r.accepted()), fmt(r.jobsPerSecond()),
                    fmt(r.post().p50()), fmt(r.post().p99()), fmt(r.toStart().p50()), fmt(r.toStart().p99()),
                    Integer.toString(c.asExpected()), Integer.toString(c.lost()), Integer.toString(c.duplicated()),
                    Integer.toString(c.unexpected()));
        });
    }

    /**
     * Two bar charts with one group per concurrency: jobs/s against the burst target, and the POST answer's p50 and
     * p99 against the p99 target; empty with fewer than two bursts, where a table says it all.
     */
    public static String charts(List<Row> rows) {
        if (rows.size() < 2) {
            return "";
        }
        List<String> categories = rows.stream().map(r -> Integer.toString(r.concurrency())).toList();
        double[] none = new double[rows.size()];
        double[] jobsPerSecond = rows.stream().mapToDouble(Row::jobsPerSecond).toArray();
        double[] p50 = rows.stream().mapToDouble(r -> r.post().p50()).toArray();
        double[] p99 = rows.stream().mapToDouble(r -> r.post().p99()).toArray();
        return SvgChart.bars("Burst throughput by concurrency", "completed jobs/s", categories,
                List.of(new SvgChart.Series("jobs/s", none, jobsPerSecond)), Targets.BURST_JOBS_PER_SECOND,
                "target " + fmt(Targets.BURST_JOBS_PER_SECOND) + " jobs/s at " + Targets.BURST_CONCURRENCY)
                + SvgChart.bars("POST /api/jobs answer by concurrency", "ms", categories,
                List.of(new SvgChart.Series("p50", none, p50), new SvgChart.Series("p99", none, p99)),
                Targets.BURST_POST_P99_MS, "p99 target " + fmt(Targets.BURST_POST_P99_MS) + " ms at "
                        + Targets.BURST_CONCURRENCY);
    }

    /** One object per burst into {@code array}. */
    public static void json(ArrayNode array, List<Row> rows) {
        for (Row r : rows) {
            ObjectNode o = array.addObject();
            o.put("concurrency", r.concurrency());
            o.put("offered", r.offered());
            o.put("accepted", r.accepted());
            putNumber(o, "throughputJobsPerSecond", r.jobsPerSecond());
            SummaryJson.percentiles(o.putObject("postMs"), r.post());
            SummaryJson.percentiles(o.putObject("submitToStartMs"), r.toStart());
            Correctness c = r.correctness();
            ObjectNode exactlyOnce = o.putObject("correctness");
            SummaryJson.outcomeCounts(exactlyOnce, c);
            exactlyOnce.put("ok", c.ok());
        }
    }
}
