package dev.jobweaver.common.messaging;

import java.time.Duration;
import java.util.List;

/**
 * The Kafka topics of the platform and their default partition counts: the one place their names live.
 *
 * <p>Topics are created with these counts before any service subscribes (deploy/local, the k8s topic job);
 * broker-side automatic topic creation stays off, because a consumer that starts first would otherwise
 * create a one-partition topic and silently change the platform's parallelism.
 */
public final class Topics {

    /** API to scheduler: a job was accepted. Keyed by jobId. */
    public static final String JOB_CREATED = "job-created";
    /** Scheduler to worker: run one attempt of a job. Keyed by jobId. */
    public static final String RUN_JOB = "run-job";
    /** Worker to scheduler: an attempt succeeded. Keyed by jobId. */
    public static final String JOB_COMPLETED = "job-completed";
    /** Worker to scheduler: an attempt failed. Keyed by jobId. */
    public static final String JOB_FAILED = "job-failed";
    /** Scheduler to operators: a job exhausted its retries. Keyed by jobId. */
    public static final String JOB_DEAD_LETTER = "job-dead-letter";
    /** Scheduler to API: every state change of a job. Keyed by jobId, compacted: the latest status per job survives. */
    public static final String JOB_STATUS = "job-status";

    /**
     * How long a compacted topic keeps a key's last record ({@code cleanup.policy=compact,delete}). {@code job-status}
     * is keyed by jobId, which never repeats, so compaction alone would keep every job's last status forever: a
     * day of benchmarks left 13 GB, which the broker's log cleaner read again at every start. A consumer more than
     * this far behind misses statuses older than this; the API's read model keeps what it applied.
     */
    public static final Duration COMPACTED_RETENTION = Duration.ofDays(7);

    /** A topic with the partition count it is created with and whether it is log-compacted. */
    public record TopicSpec(String name, int partitions, boolean compacted) {
    }

    /** Every topic with its default partition count, in the order the flow uses them. */
    public static final List<TopicSpec> ALL = List.of(
            new TopicSpec(JOB_CREATED, 1, false),
            new TopicSpec(RUN_JOB, 3, false),
            new TopicSpec(JOB_COMPLETED, 3, false),
            new TopicSpec(JOB_FAILED, 3, false),
            new TopicSpec(JOB_DEAD_LETTER, 1, false),
            new TopicSpec(JOB_STATUS, 3, true));

    private Topics() {
    }
}
