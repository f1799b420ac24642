package dev.jobweaver.bench;

import static dev.jobweaver.bench.ApiText.shorten;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * The queues workload's part of {@link WorkloadRunner}: the burst's no-op jobs sent alternately to queue
 * {@value #DEFAULT_QUEUE} and to queue {@value #QUEUE}, which a worker pool of its own serves
 * ({@code ./jobweaver up --pool bench}). Before the jobs it reads {@code GET /api/queues}: without a live worker of
 * type {@value #TYPE} on each queue it sends none; with them it warms the pool with unreported jobs on its queue.
 * After the measured jobs it reads the queues' workers again and judges every execution row of each queue's jobs by
 * whether a worker of that queue wrote it.
 */
final class QueuesBench {

    /** The queue of the pool the workload needs beside the standard worker. */
    static final String QUEUE = "bench";

    /** The platform's default queue, which the standard worker serves. */
    static final String DEFAULT_QUEUE = "default";

    /** The queues the jobs are sent to, job {@code i} to the one at {@code i % 2}. */
    static final List<String> QUEUES = List.of(DEFAULT_QUEUE, QUEUE);

    /** The job type of every bench job, which a queue's workers must run. */
    static final String TYPE = "SIMULATION";

    /** Where the API lists the queues and their live workers. */
    static final String PATH = "/api/queues";

    /**
     * Unreported jobs sent as the measured ones (queues by turns) before them, four of the bench's warm-up rounds, half
     * of them to the pool: the bench's own warm-up sends plain jobs, which reach neither the pool nor the API's and the
     * scheduler's handling of a job with a queue, so without these the pool's JIT and theirs compile inside the
     * measured run (on the 2-core machine, without them, the p99 of the run's jobs from started to finished was 2.3 s
     * against 61 ms with them).
     */
    static final int WARM_UP_JOBS = 4 * WarmUp.ROUND_JOBS;

    /** What to start for the workload, in every note that says it cannot run. */
    static final String HOW = "start the platform with `./jobweaver up --pool bench`, which runs a worker pool serving "
            + "only queue " + QUEUE + " beside the standard worker, which serves " + DEFAULT_QUEUE;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BenchOptions options;
    private final ApiClient api;
    private final Jobs jobs;
    private final PrintStream out;

    /** Where the workload sends its jobs and reads their execution rows: the runner, or a test's. */
    interface Jobs {

        /**
         * The jobs of {@code run} sent as the plain burst's, job {@code i} with {@code controls(i)}, and their
         * figures.
         */
        WorkloadResult burst(BenchOptions.Run run, IntFunction<Control> controls);

        /**
         * {@code count} no-op jobs, job {@code i} with {@code controls(i)}, {@code concurrency} in flight, not measured;
         * returns once all of them have ended.
         */
        void warmUp(String label, int count, int concurrency, IntFunction<Control> controls);

        /**
         * The {@code jobweaver_worker.execution_attempts} rows of {@code jobs} per {@code worker_id}; null when they
         * cannot be read.
         */
        Map<String, Long> runsByWorker(List<UUID> jobs);

        /**
         * The names of the platform's instances whose CPU and RSS the bench samples ({@code platform.properties}); a
         * worker is among them when its worker id is one.
         */
        Set<String> sampled();
    }

    /**
     * A live worker as {@code GET /api/queues} lists it under a queue.
     *
     * @param id its worker id, which its {@code execution_attempts} rows carry
     * @param types the job types it runs
     */
    record Worker(String id, List<String> types) {
    }

    /** The workload against {@code api}, its jobs through {@code jobs}, progress on {@code out}. */
    QueuesBench(BenchOptions options, ApiClient api, Jobs jobs, PrintStream out) {
        this.options = options;
        this.api = api;
        this.jobs = jobs;
        this.out = out;
    }

    /** The job-control fields of job {@code index}: queue {@value #DEFAULT_QUEUE} and {@value #QUEUE} by turns. */
    static Control control(int index) {
        return Control.queue(QUEUES.get(Math.floorMod(index, QUEUES.size())));
    }

    /**
     * The queues of a {@code GET /api/queues} answer, by name, each with its live workers in the answer's order; null
     * when {@code body} is not an object with a {@code queues} array of named queues.
     */
    static Map<String, List<Worker>> parse(String body) {
        JsonNode root;
        try {
            root = body == null ? null : JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
        if (root == null || !root.path("queues").isArray()) {
            return null;
        }
        Map<String, List<Worker>> queues = new LinkedHashMap<>();
        for (JsonNode queue : root.path("queues")) {
            String name = queue.path("name").asText(null);
            if (name == null) {
                return null;
            }
            List<Worker> workers = new ArrayList<>();
            for (JsonNode worker : queue.path("workers")) {
                String id = worker.path("id").asText(null);
                if (id != null) {
                    List<String> types = new ArrayList<>();
                    worker.path("types").forEach(t -> types.add(t.asText()));
                    workers.add(new Worker(id, List.copyOf(types)));
                }
            }
            queues.put(name, List.copyOf(workers));
        }
        return queues;
    }

    /**
     * Why the workload cannot run on the platform {@code queues} describes: a queue of {@link #QUEUES} without a live
     * worker of type {@value #TYPE}, and how to get one; null when each queue has one.
     */
    static String missing(Map<String, List<Worker>> queues) {
        List<String> lacking = new ArrayList<>();
        for (String queue : QUEUES) {
            List<Worker> workers = queues.getOrDefault(queue, List.of());
            if (workers.stream().noneMatch(w -> w.types().contains(TYPE))) {
                lacking.add("queue " + queue + " (" + (workers.isEmpty() ? "no live worker" : "live workers "
                        + workers.stream().map(w -> w.id() + " " + w.types()).collect(Collectors.joining(", ")))
                        + ")");
            }
        }
        return lacking.isEmpty() ? null : "no live worker of type " + TYPE + " serves " + String.join(" nor ", lacking)
                + " in " + PATH + ": " + HOW;
    }

    /** Per queue, the ids of its workers in {@code queues}. */
    static Map<String, Set<String>> workerIds(Map<String, List<Worker>> queues) {
        Map<String, Set<String>> ids = new TreeMap<>();
        queues.forEach((queue, workers) -> workers.forEach(w -> ids.computeIfAbsent(queue, q -> new TreeSet<>())
                .add(w.id())));
        return ids;
    }

    /** {@code a} and {@code b} together: per queue, the ids of either. */
    static Map<String, Set<String>> union(Map<String, Set<String>> a, Map<String, Set<String>> b) {
        Map<String, Set<String>> both = new TreeMap<>();
        a.forEach((queue, ids) -> both.computeIfAbsent(queue, q -> new TreeSet<>()).addAll(ids));
        b.forEach((queue, ids) -> both.computeIfAbsent(queue, q -> new TreeSet<>()).addAll(ids));
        return both;
    }

    /** Does the workload: the queues read, the jobs, the queues read again, the execution rows judged. */
    WorkloadResult run(BenchOptions.Run run) {
        String label = run.label();
        out.println(label + ": GET " + PATH + "...");
        ApiClient.Answer before = api.send(HttpMethod.GET, PATH, null).join();
        if (before.status() == 404 || before.status() == 405) {
            return WorkloadResult.unavailable(run, "the API answers " + before.status() + " to GET " + PATH + " ("
                    + shorten(before.body()) + "); the platform does not support queues");
        }
        if (before.status() != 200) {
            return WorkloadResult.unavailable(run, "GET " + PATH + " was answered " + before.status() + " "
                    + shorten(before.body()) + ", not 200");
        }
        Map<String, List<Worker>> served = parse(before.body());
        if (served == null) {
            return WorkloadResult.unavailable(run, "GET " + PATH + " was answered 200 without a list of named queues: "
                    + shorten(before.body()));
        }
        String missing = missing(served);
        if (missing != null) {
            return WorkloadResult.unavailable(run, missing);
        }
        List<String> notes = new ArrayList<>();
        Map<String, Set<String>> workers = workerIds(served);
        int warmUp = warmUp(options.warmup());
        if (warmUp > 0) {
            out.println(label + ": " + warmUp + " no-op jobs to the two queues by turns first, not reported (the "
                    + "pool's warm-up)...");
            jobs.warmUp(label + " warm-up", warmUp, run.concurrency(), QueuesBench::control);
        }
        out.println(label + ": " + options.jobsAt(run.concurrency()) + " no-op jobs, queue " + DEFAULT_QUEUE
                + " and queue " + QUEUE + " by turns (workers " + pools(workers) + ")...");
        WorkloadResult burst = jobs.burst(run, QueuesBench::control);
        ApiClient.Answer after = api.send(HttpMethod.GET, PATH, null).join();
        Map<String, List<Worker>> servedAfter = after.status() == 200 ? parse(after.body()) : null;
        if (servedAfter == null) {
            notes.add("GET " + PATH + " after the jobs was answered " + after.status() + " " + shorten(after.body())
                    + ": each queue's workers are those listed before them");
        } else {
            workers = union(workers, workerIds(servedAfter));
        }
        Set<String> shared = new TreeSet<>(workers.getOrDefault(DEFAULT_QUEUE, Set.of()));
        shared.retainAll(workers.getOrDefault(QUEUE, Set.of()));
        if (!shared.isEmpty()) {
            notes.add("workers " + String.join(", ", shared) + " serve both queues: their runs are inside either pool");
        }
        QueueRuns figures = QueueRuns.of(QUEUES, DEFAULT_QUEUE, burst.jobs(), workers, jobs::runsByWorker);
        Set<String> unsampled = new TreeSet<>();
        for (String queue : QUEUES) {
            unsampled.addAll(workers.getOrDefault(queue, Set.of()));
        }
        unsampled.removeAll(jobs.sampled());
        if (!unsampled.isEmpty()) {
            notes.add("workers " + String.join(", ", unsampled) + " are not among the instances in "
                    + "platform.properties, so their CPU and RSS are not sampled: CPU per job and its ceiling leave "
                    + "them out");
        }
        if (!figures.measured()) {
            notes.add("jobweaver_worker.execution_attempts could not be read: no run was judged by its worker");
        }
        if (figures.outside() > 0) {
            out.println(label + ": " + figures.outside() + " runs by a worker outside their queue's pool");
        }
        notes.add(0, method(run.concurrency(), workers));
        if (!burst.note().isEmpty()) {
            notes.add(1, burst.note());
        }
        return burst.withQueues(figures, String.join("; ", notes));
    }

    /**
     * The jobs that warm the pool, given the bench's {@code --warmup}: {@link #WARM_UP_JOBS} when it is {@code auto},
     * else as many as the platform's warm-up ran (none: a cold platform asked for).
     */
    static int warmUp(int warmup) {
        return warmup == BenchOptions.AUTO_WARMUP ? WARM_UP_JOBS : Math.max(0, warmup);
    }

    /** {@code default: worker-1; bench: worker-bench}: the workers of each queue the jobs go to. */
    private static String pools(Map<String, Set<String>> workers) {
        return QUEUES.stream().map(q -> q + ": " + String.join(", ", workers.getOrDefault(q, Set.of())))
                .collect(Collectors.joining("; "));
    }

    /** The workload's method in one note. */
    String method(int concurrency, Map<String, Set<String>> workers) {
        return String.format(Locale.ROOT, "%d no-op jobs, %d in flight, sent to queue %s and queue %s by turns, "
                        + "after %d unreported ones sent so; each queue's workers are the live ones %s lists "
                        + "before and after the jobs (%s); every execution_attempts row of a queue's jobs written by "
                        + "another worker is a correctness failure; jobs/s per queue over its own jobs", options.jobsAt(concurrency), concurrency,
                DEFAULT_QUEUE, QUEUE, warmUp(options.warmup()), PATH, pools(workers));
    }
}
