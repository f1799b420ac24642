package dev.jobweaver.common.messaging;

import java.time.Duration;
import java.util.List;

/**
 * The Kafka topics of the platform and their default partition counts: the one place their names live.
 *
 * <p>Topics are created with these counts before any service subscribes (tools/launcher, the k8s topic job);
 * broker-side automatic topic creation stays off, because a consumer that starts first would otherwise
 * create a one-partition topic and silently change the platform's parallelism.
 *
 * <p>The counts here are the defaults for one machine and the base manifests, and small on purpose. A topic's
 * partition count bounds how many replicas of its consuming service take a share of it, so it is configuration:
 * {@code ./jobweaver up --partitions} and the replica options choose it locally, the prod overlay of deploy/k8s sets
 * 12 for the topics between the services.
 */
public final class Topics {

    /** API to scheduler: a job was accepted. Keyed by jobId. */
    public static final String JOB_CREATED = "job-created";
    /**
     * Scheduler to worker: run one attempt of a job of the default queue. Keyed by jobId. The runs of any other queue
     * travel on a topic of their own ({@link #runJob(String)}), so that a worker pool receives only its queues' work.
     */
    public static final String RUN_JOB = "run-job";
    /**
     * What the run topic of a queue other than the default is named after: {@code run-job.<queue>}. A worker creates
     * the topics of its queues before it subscribes; the scheduler publishes to one only while a worker of its queue
     * lives.
     */
    public static final String RUN_JOB_QUEUE_PREFIX = RUN_JOB + ".";
    /** Worker to scheduler: an attempt succeeded. Keyed by jobId. */
    public static final String JOB_COMPLETED = "job-completed";
    /** Worker to scheduler: an attempt failed. Keyed by jobId. */
    public static final String JOB_FAILED = "job-failed";
    /** Scheduler to the API's dead-letter review and to operators: a job exhausted its retries. Keyed by jobId. */
    public static final String JOB_DEAD_LETTER = "job-dead-letter";
    /**
     * Scheduler to API: every state change of a job. Keyed by jobId, compacted: the latest status per job survives. A
     * deleted job's key gets a tombstone (a record without a value), so compaction forgets the job too.
     */
    public static final String JOB_STATUS = "job-status";
    /**
     * API to scheduler: a client's command about one job ({@code JobCommandEvent}: cancel it, delete it). Keyed by
     * jobId; as many partitions as {@link #JOB_CREATED} by default.
     */
    public static final String JOB_COMMANDS = "job-commands";
    /**
     * Scheduler to every worker: stop running a cancelled job, forget a deleted one ({@code JobCommandEvent}). Keyed by
     * jobId. Not shared out between the workers: each worker reads every partition in a consumer group of its own,
     * because the scheduler does not know which worker holds a run, or will receive it.
     */
    public static final String WORKER_COMMANDS = "worker-commands";
    /**
     * API to scheduler: the timing of each recurring schedule ({@code ScheduleEvent}). Keyed by scheduleId, compacted:
     * the latest definition per schedule survives, a deleted schedule's key gets a tombstone. Schedules are few and
     * long-lived, so the API republishes each one well within {@link #COMPACTED_RETENTION}.
     */
    public static final String SCHEDULES = "schedules";
    /**
     * Scheduler to API: a schedule's tick came ({@code ScheduleFiredEvent}); the API makes its job. Keyed by
     * scheduleId.
     */
    public static final String SCHEDULE_FIRED = "schedule-fired";
    /**
     * API to scheduler: start a workflow run with its graph, or cancel one ({@code WorkflowRunEvent}). Keyed by runId,
     * so a run's start and cancel keep their order.
     */
    public static final String WORKFLOW_RUNS = "workflow-runs";
    /**
     * Scheduler to API: a workflow run's whole state after a change, with the nodes that became ready
     * ({@code WorkflowProgressEvent}); the API makes their jobs. Keyed by runId.
     */
    public static final String WORKFLOW_PROGRESS = "workflow-progress";
    /**
     * API to scheduler: each tenant's concurrency limit ({@code TenantLimitEvent}). Keyed by tenant, compacted: the
     * latest limit per tenant survives; a removed limit is an event without one. The API republishes each within
     * {@link #COMPACTED_RETENTION}.
     */
    public static final String TENANT_LIMITS = "tenant-limits";

    /**
     * Every worker to the scheduler and the API: the worker is alive, serves these queues and runs these job types
     * ({@code WorkerHeartbeatEvent}), sent every few seconds and once more as it leaves. Keyed by workerId,
     * compacted: the latest heartbeat per worker survives.
     */
    public static final String WORKER_HEARTBEATS = "worker-heartbeats";

    /**
     * Any consumer to operators: a record that could not be processed for a reason no retry cures, with its origin and
     * reason in headers ({@code dev.jobweaver.common.quarantine.QuarantineHeaders}). Keyed as the original record.
     */
    public static final String QUARANTINE = "jobweaver-quarantine";

    /**
     * The largest record {@link #QUARANTINE} takes: twice Kafka's default, so that a quarantined copy of a record that
     * was at the default limit still fits with its added headers.
     */
    public static final int QUARANTINE_MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

    /**
     * How long a compacted topic keeps a key's last record ({@code cleanup.policy=compact,delete}). {@code job-status}
     * is keyed by jobId, which never repeats, so compaction alone would keep every job's last status forever: a
     * day of benchmarks left 13 GB, which the broker's log cleaner read again at every start. A consumer more than
     * this far behind misses statuses older than this; the API's read model keeps what it applied.
     */
    public static final Duration COMPACTED_RETENTION = Duration.ofDays(7);

    /**
     * A topic with the partition count it is created with, whether it is log-compacted, and its largest record.
     *
     * @param maxMessageBytes the topic's {@code max.message.bytes}, or 0 for the broker's default
     */
    public record TopicSpec(String name, int partitions, boolean compacted, int maxMessageBytes) {

        public TopicSpec(String name, int partitions, boolean compacted) {
            this(name, partitions, compacted, 0);
        }

        /** The same topic with another partition count. */
        public TopicSpec withPartitions(int count) {
            return new TopicSpec(name, count, compacted, maxMessageBytes);
        }
    }

    /** Every topic with its default partition count, in the order the flow uses them. */
    public static final List<TopicSpec> ALL = List.of(
            new TopicSpec(JOB_CREATED, 3, false),
            new TopicSpec(RUN_JOB, 3, false),
            new TopicSpec(JOB_COMPLETED, 3, false),
            new TopicSpec(JOB_FAILED, 3, false),
            new TopicSpec(JOB_DEAD_LETTER, 1, false),
            new TopicSpec(JOB_STATUS, 3, true),
            new TopicSpec(JOB_COMMANDS, 3, false),
            new TopicSpec(WORKER_COMMANDS, 1, false),
            new TopicSpec(SCHEDULES, 3, true),
            new TopicSpec(SCHEDULE_FIRED, 3, false),
            new TopicSpec(WORKFLOW_RUNS, 3, false),
            new TopicSpec(WORKFLOW_PROGRESS, 3, false),
            new TopicSpec(TENANT_LIMITS, 3, true),
            new TopicSpec(WORKER_HEARTBEATS, 1, true),
            new TopicSpec(QUARANTINE, 1, false, QUARANTINE_MAX_MESSAGE_BYTES));

    /** The queue whose runs travel on {@code topic}, or null when it is no queue's run topic. */
    public static String queueOf(String topic) {
        if (RUN_JOB.equals(topic)) {
            return dev.jobweaver.common.job.JobControl.DEFAULT_QUEUE;
        }
        return topic != null && topic.startsWith(RUN_JOB_QUEUE_PREFIX) ? topic.substring(RUN_JOB_QUEUE_PREFIX.length())
                : null;
    }

    /** The topic of the runs of {@code queue}: {@link #RUN_JOB} for the default queue (or null), else its own. */
    public static String runJob(String queue) {
        return queue == null || queue.equals(dev.jobweaver.common.job.JobControl.DEFAULT_QUEUE) ? RUN_JOB
                : RUN_JOB_QUEUE_PREFIX + queue;
    }

    /**
     * The topic named {@code name} with its default partition count.
     *
     * @throws IllegalArgumentException when no topic of the platform has that name
     */
    public static TopicSpec named(String name) {
        return ALL.stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown topic '" + name + "' ("
                        + String.join(", ", ALL.stream().map(TopicSpec::name).toList()) + ")"));
    }

    private Topics() {
    }
}
