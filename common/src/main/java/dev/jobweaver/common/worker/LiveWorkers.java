package dev.jobweaver.common.worker;

import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobControl;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which (queue, job type) pairs the live workers serve, as read at one moment: a job of a pair no live worker serves
 * waits for one. Immutable; a service keeps the latest and replaces it as heartbeats come and go.
 *
 * <p>{@link #UNKNOWN} is what a service holds before its first read: it serves everything, so that a service that has
 * not read its workers yet behaves as the platform did before workers announced themselves, and parks nothing.
 */
public final class LiveWorkers {

    /** Before the first read: every pair counts as served. */
    public static final LiveWorkers UNKNOWN = new LiveWorkers(null, List.of());

    private final Set<String> pairs;
    private final List<WorkerStore.LiveWorker> workers;
    /** Per type, the defaults of the first live worker (by id) that declares any; empty while none does. */
    private final Map<String, WorkerHeartbeatEvent.TypeDefaults> defaults;
    /** {@link #partitionsFor} by pair, worked out on first use: most snapshots are asked about one or two pairs. */
    private final Map<String, int[]> aimed = new ConcurrentHashMap<>();
    private static final int[] ANY = new int[0];

    private LiveWorkers(Set<String> pairs, List<WorkerStore.LiveWorker> workers) {
        this.pairs = pairs;
        this.workers = workers;
        Map<String, WorkerHeartbeatEvent.TypeDefaults> declared = new HashMap<>();
        workers.stream().sorted(Comparator.comparing(WorkerStore.LiveWorker::id))
                .forEach(worker -> worker.defaults().forEach(declared::putIfAbsent));
        this.defaults = Map.copyOf(declared);
    }

    /** The pairs {@code workers} serve. */
    public static LiveWorkers of(List<WorkerStore.LiveWorker> workers) {
        Set<String> pairs = new HashSet<>();
        for (WorkerStore.LiveWorker worker : workers) {
            for (String queue : worker.queues()) {
                for (String type : worker.types()) {
                    pairs.add(pair(queue, type));
                }
            }
        }
        return new LiveWorkers(Set.copyOf(pairs), List.copyOf(workers));
    }

    /** Whether a live worker serves {@code queue} (null: the default queue) and runs {@code type}. */
    public boolean serves(String queue, String type) {
        return pairs == null || pairs.contains(pair(queue == null ? JobControl.DEFAULT_QUEUE : queue, type));
    }

    /**
     * What a job of {@code type} on {@code queue} waits for ("a worker for type image.resize on queue images"), or null
     * when a live worker serves it.
     */
    public String waitingFor(String queue, String type) {
        if (serves(queue, type)) {
            return null;
        }
        return "a worker for type " + type + " on queue " + (queue == null ? JobControl.DEFAULT_QUEUE : queue);
    }

    /**
     * The partitions of {@code queue}'s run topic that a run of {@code type} should go to, or null when any will do
     * (its key's partition).
     *
     * <p>Any will do when every live worker of the queue declares the type, the usual case. When only some do, a run
     * on another's partition would be handed back, so it is aimed at the partitions the workers that declare it hold,
     * as their heartbeats say; if none of them has said, null, and a run that meets a worker without the type is
     * handed back and dispatched again.
     */
    public int[] partitionsFor(String queue, String type) {
        if (pairs == null) {
            return null;
        }
        String q = queue == null ? JobControl.DEFAULT_QUEUE : queue;
        int[] partitions = aimed.computeIfAbsent(pair(q, type), p -> aim(q, type));
        return partitions == ANY ? null : partitions;
    }

    private int[] aim(String queue, String type) {
        boolean mixed = false;
        Set<Integer> held = new TreeSet<>();
        for (WorkerStore.LiveWorker worker : workers) {
            if (!worker.queues().contains(queue)) {
                continue;
            }
            if (!worker.types().contains(type)) {
                mixed = true;
            } else if (worker.partitions() != null) {
                held.addAll(worker.partitions().getOrDefault(queue, List.of()));
            }
        }
        if (!mixed || held.isEmpty()) {
            return ANY;
        }
        return held.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * {@code control} with the defaults the live workers declare for {@code type} filled in where it sets nothing (its
     * timeout, retry delays and priority); {@code control} itself when no live worker declares any.
     */
    public JobControl withDefaults(JobControl control, String type) {
        if (defaults.isEmpty()) {
            return control;
        }
        WorkerHeartbeatEvent.TypeDefaults d = defaults.get(type);
        if (d == null) {
            return control;
        }
        JobControl c = JobControl.orDefaults(control);
        if ((c.timeoutMs() != null || d.timeoutMs() == null) && (c.retryDelaysMs() != null
                || d.retryDelaysMs() == null) && (c.priority() != null || d.priority() == null)) {
            return control;
        }
        return new JobControl(c.priority() != null ? c.priority() : d.priority(), c.runAt(),
                c.timeoutMs() != null ? c.timeoutMs() : d.timeoutMs(),
                c.retryDelaysMs() != null ? c.retryDelaysMs() : d.retryDelaysMs(), c.tenant(), c.labels(), c.queue());
    }

    /** The defaults the live workers declare for {@code type}, or null for none. */
    public WorkerHeartbeatEvent.TypeDefaults defaultsFor(String type) {
        return defaults.get(type);
    }

    /** Whether this is a read of the workers rather than {@link #UNKNOWN}. */
    public boolean known() {
        return pairs != null;
    }

    /** The live workers read. */
    public List<WorkerStore.LiveWorker> workers() {
        return workers;
    }

    /** The served pairs as two arrays of one order, queues then types: for statements that take them as arrays. */
    public String[][] pairArrays() {
        List<String> ordered = pairs == null ? List.of() : List.copyOf(pairs);
        String[] queues = new String[ordered.size()];
        String[] types = new String[ordered.size()];
        for (int i = 0; i < ordered.size(); i++) {
            String pair = ordered.get(i);
            int split = pair.indexOf('\u0000');
            queues[i] = pair.substring(0, split);
            types[i] = pair.substring(split + 1);
        }
        return new String[][] {queues, types};
    }

    private static String pair(String queue, String type) {
        // U+0000 is in no queue's or type's name
        return queue + '\u0000' + type;
    }
}
