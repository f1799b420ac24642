package dev.jobweaver.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a workload's work spread over the replicas of each service ({@code ./jobweaver up --schedulers 2 --workers 3}):
 * per API and scheduler instance, the growth of its own Prometheus counters ({@code /q/metrics}) from before the
 * workload's first submission to after its last job ended; per worker, its rows in
 * {@code jobweaver_worker.execution_attempts} ({@code worker_id} is the instance's name).
 */
public final class ReplicaShare {

    /** What {@link #EXECUTIONS} rows count. */
    public static final String EXECUTIONS = "executions (execution_attempts)";

    /** The worker service's name, whose share comes from its database rather than counters. */
    static final String WORKER = "worker-service";

    /**
     * A counter some service exposes.
     *
     * @param service the service (an instance's name without its replica number)
     * @param what what it counts, for people
     * @param metric its Prometheus name
     * @param labels the labels its samples must have
     */
    record Counter(String service, String what, String metric, Map<String, String> labels) {
    }

    /**
     * The counters compared: the API's accepted submissions and the status events its read model applied, the
     * scheduler's ingested jobs, dispatched attempts and jobs completed; each instance counts what it did itself.
     */
    static final List<Counter> COUNTERS = List.of(
            new Counter("api-service", "jobs submitted (202)", "jobweaver_jobs_submitted_total", Map.of()),
            new Counter("api-service", "status events applied", "jobweaver_status_events_total",
                    Map.of("result", "applied")),
            new Counter("scheduler-service", "jobs ingested", "jobweaver_jobs_ingested_total", Map.of()),
            new Counter("scheduler-service", "attempts dispatched", "jobweaver_jobs_dispatched_total", Map.of()),
            new Counter("scheduler-service", "jobs completed", "jobweaver_jobs_completed_total", Map.of()));

    private static final Pattern REPLICA = Pattern.compile("(.+?)-(\\d+)");
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(3);

    private ReplicaShare() {
    }

    /**
     * One replica's part of one count.
     *
     * @param replica the instance, e.g. {@code worker-service-2}
     * @param service its service, e.g. {@code worker-service}
     * @param counted what is counted, e.g. {@code attempts dispatched}
     * @param count how many during the workload; NaN when its counters could not be read or restarted
     * @param share its part of all replicas' count, 0 to 1; NaN when nothing was counted
     */
    public record Row(String replica, String service, String counted, double count, double share) {
    }

    /**
     * Every instance's samples at one moment, by instance name; an instance that did not answer has none.
     *
     * @param samples by instance name
     */
    public record Snapshot(Map<String, List<PrometheusText.Sample>> samples) {

        /** No instance read: no counter rows. */
        public static final Snapshot NONE = new Snapshot(Map.of());

        /** Reads {@code /q/metrics} of every API and scheduler instance by {@code fetch} (URL to body, or null). */
        public static Snapshot take(PlatformState platform, Function<String, String> fetch) {
            Map<String, List<PrometheusText.Sample>> samples = new LinkedHashMap<>();
            for (PlatformState.Instance instance : platform.instances()) {
                if (service(instance.name()).equals(WORKER)) {
                    continue;
                }
                String body = fetch.apply(instance.url() + "/q/metrics");
                if (body != null) {
                    samples.put(instance.name(), PrometheusText.parse(body));
                }
            }
            return new Snapshot(Map.copyOf(samples));
        }
    }

    /** The service of an instance: {@code worker-service-2} is a {@code worker-service}. */
    static String service(String instance) {
        Matcher m = REPLICA.matcher(instance);
        return m.matches() ? m.group(1) : instance;
    }

    /**
     * The rows of one workload: per counter of {@link #COUNTERS}, one row per instance of its service; then one row
     * per worker with executions ({@code executionsByWorker} by {@code worker_id}, null when unreadable), the
     * platform's worker instances first, with 0 for one that ran nothing.
     */
    public static List<Row> of(PlatformState platform, Snapshot before, Snapshot after,
                               Map<String, Long> executionsByWorker) {
        List<Row> rows = new ArrayList<>();
        for (Counter counter : COUNTERS) {
            List<PlatformState.Instance> replicas = platform.instances().stream()
                    .filter(i -> service(i.name()).equals(counter.service())).toList();
            Map<String, Double> counts = new LinkedHashMap<>();
            for (PlatformState.Instance replica : replicas) {
                counts.put(replica.name(), delta(before, after, replica.name(), counter));
            }
            if (counts.values().stream().allMatch(v -> v.isNaN())) {
                continue;
            }
            addShares(rows, counter.service(), counter.what(), counts);
        }
        if (executionsByWorker != null) {
            Map<String, Double> counts = new LinkedHashMap<>();
            platform.instances().stream().filter(i -> service(i.name()).equals(WORKER))
                    .forEach(i -> counts.put(i.name(), 0.0));
            executionsByWorker.forEach((worker, n) -> counts.merge(worker, (double) n, Double::sum));
            if (!counts.isEmpty()) {
                addShares(rows, WORKER, EXECUTIONS, counts);
            }
        }
        return List.copyOf(rows);
    }

    /** Whether some count was split among two replicas or more: the table is worth printing. */
    public static boolean scaledOut(List<Row> rows) {
        Map<String, Integer> replicas = new HashMap<>();
        rows.forEach(r -> replicas.merge(r.counted(), 1, Integer::sum));
        return replicas.values().stream().anyMatch(n -> n > 1);
    }

    /**
     * One row per replica and count, one column per workload that read its replicas: {@code count (share)}; null when
     * no workload's work was split among two replicas or more.
     */
    public static TextTable table(List<WorkloadResult> results) {
        List<WorkloadResult> with = results.stream().filter(r -> !r.replicaShare().isEmpty()).toList();
        if (with.stream().noneMatch(r -> scaledOut(r.replicaShare()))) {
            return null;
        }
        Map<List<String>, Map<String, Row>> byLine = new LinkedHashMap<>();
        for (WorkloadResult r : with) {
            for (Row row : r.replicaShare()) {
                byLine.computeIfAbsent(List.of(row.replica(), row.counted()), k -> new HashMap<>()).put(r.label(), row);
            }
        }
        List<String> header = new ArrayList<>(List.of("replica", "counted"));
        with.forEach(r -> header.add(r.label()));
        TextTable table = new TextTable(header.toArray(String[]::new));
        byLine.forEach((line, cells) -> {
            List<String> row = new ArrayList<>(line);
            with.forEach(r -> {
                Row cell = cells.get(r.label());
                row.add(cell == null ? "" : cell(cell));
            });
            table.row(row.toArray(String[]::new));
        });
        return table;
    }

    /** {@code 6667 (33.3%)}, {@code -} without a count. */
    public static String cell(Row row) {
        if (Double.isNaN(row.count())) {
            return "-";
        }
        return Targets.fmt(row.count()) + (Double.isNaN(row.share()) ? "" : " (" + Targets.fmt(row.share() * 100)
                + "%)");
    }

    /** The body of {@code url}, or null when it does not answer 200 within a few seconds. */
    public static String fetch(HttpClient http, String url) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(SCRAPE_TIMEOUT)
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        } catch (IOException | IllegalArgumentException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static void addShares(List<Row> rows, String service, String counted, Map<String, Double> counts) {
        double total = counts.values().stream().filter(v -> !Double.isNaN(v)).mapToDouble(Double::doubleValue).sum();
        counts.forEach((replica, n) -> rows.add(new Row(replica, service, counted, n,
                Double.isNaN(n) || total <= 0 ? Double.NaN : n / total)));
    }

    /** How much {@code counter} grew on {@code instance}; NaN when unread in either snapshot or it went back. */
    private static double delta(Snapshot before, Snapshot after, String instance, Counter counter) {
        List<PrometheusText.Sample> was = before.samples().get(instance);
        List<PrometheusText.Sample> is = after.samples().get(instance);
        if (was == null || is == null) {
            return Double.NaN;
        }
        double from = PrometheusText.sum(was, counter.metric(), counter.labels());
        double to = PrometheusText.sum(is, counter.metric(), counter.labels());
        if (Double.isNaN(to)) {
            return Double.NaN;
        }
        // a counter that appeared during the workload started at 0; one that went back was reset by a restart
        double grown = to - (Double.isNaN(from) ? 0 : from);
        return grown < 0 ? Double.NaN : grown;
    }
}
