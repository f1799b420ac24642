package dev.jobweaver.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

/**
 * What the queues workload measured per queue: its jobs, their rate, and which workers wrote their execution rows,
 * against the workers that serve the queue. A row written by a worker outside the queue's pool is a run the platform
 * routed to the wrong workers.
 *
 * @param queues one entry per queue the jobs were sent to, in the order given to {@link #of}
 * @param measured whether the worker's {@code execution_attempts} could be read; without them no row is judged
 * @param correctness each execution row judged: written by a worker of its job's queue, or not
 */
public record QueueRuns(List<Queue> queues, boolean measured, Correctness correctness) {

    /** The worker id under which rows without one are counted: never a worker of any queue. */
    static final String NO_WORKER = "-";

    /**
     * One queue.
     *
     * @param name its name
     * @param workers the ids of the live workers {@code GET /api/queues} listed for it before or after the run
     * @param jobs accepted jobs sent to it
     * @param completed of them, COMPLETED
     * @param jobsPerSecond its completed jobs / (its last finish − its first submit); NaN when none completed
     * @param runsByWorker its jobs' execution rows per worker id ({@value #NO_WORKER} for a row without one); empty
     *                     when they could not be read
     * @param outside of those rows, the ones written by a worker not among {@code workers}
     */
    public record Queue(String name, Set<String> workers, int jobs, int completed, double jobsPerSecond,
                        Map<String, Long> runsByWorker, long outside) {

        /** Its jobs' execution rows, by whichever worker. */
        public long runs() {
            return runsByWorker.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /**
     * The figures from the run's jobs.
     *
     * @param queues the queues the jobs were sent to, in the order to report them; a job sent without a queue is of
     *               {@code defaultQueue}
     * @param defaultQueue the platform's default queue
     * @param jobs the run's jobs as the platform recorded them, each with the queue it was sent to
     * @param workers per queue, the ids of its workers (a queue absent here has none)
     * @param runsByWorker reads the execution rows of a queue's jobs per worker id; null when they cannot be read
     */
    public static QueueRuns of(List<String> queues, String defaultQueue, List<JobRecord> jobs,
                               Map<String, Set<String>> workers,
                               Function<List<UUID>, Map<String, Long>> runsByWorker) {
        Map<String, List<JobRecord>> byQueue = new LinkedHashMap<>();
        queues.forEach(q -> byQueue.put(q, new ArrayList<>()));
        for (JobRecord job : jobs) {
            String queue = job.control().queue() == null ? defaultQueue : job.control().queue();
            byQueue.computeIfAbsent(queue, q -> new ArrayList<>()).add(job);
        }
        List<Queue> out = new ArrayList<>();
        List<String> examples = new ArrayList<>();
        boolean measured = true;
        long inside = 0;
        long outside = 0;
        for (Map.Entry<String, List<JobRecord>> e : byQueue.entrySet()) {
            List<JobRecord> own = e.getValue();
            Set<String> pool = new TreeSet<>(workers.getOrDefault(e.getKey(), Set.of()));
            Map<String, Long> rows = own.isEmpty() ? Map.of()
                    : runsByWorker.apply(own.stream().map(JobRecord::jobId).toList());
            if (rows == null) {
                measured = false;
                rows = Map.of();
            }
            long foreign = 0;
            for (Map.Entry<String, Long> w : new TreeMap<>(rows).entrySet()) {
                if (pool.contains(w.getKey())) {
                    inside += w.getValue();
                } else {
                    foreign += w.getValue();
                    if (examples.size() < Correctness.MAX_EXAMPLES) {
                        examples.add(w.getValue() + " execution rows of queue " + e.getKey() + "'s jobs written by "
                                + (NO_WORKER.equals(w.getKey()) ? "no worker id" : "worker " + w.getKey())
                                + ", which does not serve it (its workers: "
                                + (pool.isEmpty() ? "none" : String.join(", ", pool)) + ")");
                    }
                }
            }
            outside += foreign;
            List<JobRecord> completed = own.stream().filter(JobRecord::completed).toList();
            Instant firstSubmit = own.stream().map(JobRecord::submittedAt).filter(Objects::nonNull)
                    .min(Comparator.naturalOrder()).orElse(null);
            out.add(new Queue(e.getKey(), Collections.unmodifiableSet(pool), own.size(), completed.size(),
                    WorkloadResult.throughput(completed, firstSubmit, JobRecord::finishedAt),
                    Collections.unmodifiableMap(new TreeMap<>(rows)), foreign));
        }
        Correctness judged = new Correctness(Math.toIntExact(inside + outside), Math.toIntExact(inside), 0, 0,
                Math.toIntExact(outside), List.copyOf(examples));
        return new QueueRuns(List.copyOf(out), measured, judged);
    }

    /** Execution rows written by a worker outside their job's queue's pool, over every queue. */
    public long outside() {
        return queues.stream().mapToLong(Queue::outside).sum();
    }

    /** Execution rows read, over every queue. */
    public long runs() {
        return queues.stream().mapToLong(Queue::runs).sum();
    }

    /** The queue named {@code name}; null when no job was sent to it. */
    public Queue queue(String name) {
        return queues.stream().filter(q -> q.name().equals(name)).findFirst().orElse(null);
    }
}
