package dev.jobweaver.common.worker;

import dev.jobweaver.common.job.JobControl;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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

    private LiveWorkers(Set<String> pairs, List<WorkerStore.LiveWorker> workers) {
        this.pairs = pairs;
        this.workers = workers;
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
