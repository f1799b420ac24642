package dev.jobweaver.worker;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Typed configuration of the worker ({@code jobweaver.worker.*}). */
@ConfigMapping(prefix = "jobweaver.worker")
public interface WorkerConfig {

    /** Names this worker instance in {@code execution_attempts} and in outcome events; unset: host name plus a random suffix. */
    Optional<String> workerId();

    /**
     * The queues this worker serves, each {@code [a-z0-9][a-z0-9-]{0,62}}: it receives their runs ({@code run-job} for
     * {@code default}, {@code run-job.<queue>} for the others, created when missing) and announces itself for them.
     */
    @WithDefault("default")
    List<String> queues();

    /**
     * The partitions of a queue's run topic ({@code run-job.<queue>}) when this worker creates it: how many workers of
     * the queue take a share of its runs.
     */
    @WithDefault("3")
    int queuePartitions();

    /** How often this worker tells the platform it lives ({@code worker-heartbeats}). */
    @WithDefault("5s")
    Duration heartbeatInterval();

    /**
     * Runs in progress at once on this worker, over all its consumers. When every slot is taken the worker stops
     * asking for records, the connector's queue fills and the connector pauses the partitions (the poll loop goes on).
     * Large because a run is a virtual thread that mostly waits (SLEEP, HTTP_CALL, the database, Kafka's ack): with 5%
     * of jobs sleeping 5 s at 2,000 jobs/s the sleepers alone hold 500 runs; CPU-bound work has its own, small bound
     * ({@link #computePermits()}).
     */
    @WithDefault("1000")
    int maxInFlight();

    /**
     * COMPUTE steps running at once on this worker (CPU-bound work, held only for the step); unset: one per available
     * processor. A run waiting for a permit waits within its time bound.
     */
    Optional<Integer> computePermits();

    /** On shutdown: how long to let runs in progress finish before committing and exiting. */
    @WithDefault("30s")
    Duration shutdownGracePeriod();

    /** How a run is executed. */
    Run run();

    /** The out-of-order commit strategy. */
    Offsets offsets();

    /** Cancels and deletes of jobs ({@code worker-commands}). */
    Commands commands();

    /** How long finished attempts are kept ({@code AttemptCleanup}). */
    Attempts attempts();

    /** How a run is executed. */
    interface Run {

        /** Added to the steps' own durations to form a run's time bound; a run past its bound fails. */
        @WithDefault("30s")
        Duration timeBoundSlack();

        /** Time allowed per COMPUTE iteration when deriving a run's time bound. */
        @WithDefault("20")
        long computeNanosPerIteration();

        /** How long to wait for Kafka to acknowledge an outcome before trying again. */
        @WithDefault("30s")
        Duration publishTimeout();

        /** How long a database call may take before it is tried again. */
        @WithDefault("10s")
        Duration databaseTimeout();

        /**
         * At most this many runs' {@code execution_attempts} writes go out as one statement (group commit: the writes
         * of runs that arrive while earlier ones are being written are written together).
         */
        @WithDefault("256")
        int attemptBatchSize();

        /**
         * Group-committed statements of each kind (begin, finish) in flight at once; the rest of the connection pool
         * stays free for other reads. One makes the batches largest: in a 20,000-job burst, 4 gave statements of 5
         * rows on average and 1 gave 16, for fewer statements and a higher throughput.
         */
        @WithDefault("1")
        int attemptBatchesInFlight();
    }

    /** The out-of-order commit strategy ({@code commit-strategy=out-of-order}). */
    interface Offsets {

        /** How often the contiguous completed offset (and the metadata above it) is committed, from the poll thread. */
        @WithDefault("1s")
        Duration commitInterval();

        /** How long a commit may take before it counts as failed (it is tried again at the next interval). */
        @WithDefault("10s")
        Duration commitTimeout();

        /**
         * An offset in flight for longer than this is reported as stuck (log, metric, health detail); so is a
         * partition paused this long while the worker has free run slots and receives nothing from it.
         */
        @WithDefault("2m")
        Duration stuckThreshold();

        /** Whether a stuck offset turns the readiness check DOWN (otherwise it is only a detail of an UP check). */
        @WithDefault("false")
        boolean stuckMarksUnready();

        /** The size bound of the commit metadata: Kafka's {@code offset.metadata.max.bytes} (4096 by default). */
        @WithDefault("4096")
        int metadataMaxChars();
    }

    /** The age cleanup of {@code execution_attempts}. */
    interface Attempts {

        /**
         * How long a finished attempt is kept after it started: longer than a {@code run-job} record lives (7 days by
         * Kafka's default), since a redelivered run whose attempt is gone would run again.
         */
        @WithDefault("30d")
        Duration retention();

        /** How often the cleanup runs; 0 never. */
        @WithDefault("10m")
        Duration cleanupInterval();

        /** Most attempts one delete statement takes; a full batch is followed by the next at once. */
        @WithDefault("5000")
        int cleanupBatchSize();
    }

    /** Cancels and deletes of jobs, read from {@code worker-commands} by every worker. */
    interface Commands {

        /**
         * How far back a worker reads {@code worker-commands} when it starts, and how long it remembers a cancelled
         * or deleted job. A run-job record of a job cancelled longer ago than this is run (the scheduler ignores the
         * outcome of a job it holds {@code CANCELLED}); a day is far longer than a record waits on {@code run-job}.
         */
        @WithDefault("24h")
        Duration window();

        /**
         * The most cancelled or deleted jobs remembered at once (about 200 bytes each: 10 MB at the default); past it
         * the oldest are forgotten first, as if their window had passed.
         */
        @WithDefault("50000")
        int maxEntries();

        /**
         * How long a run waits, after the worker starts, for the worker to have read {@code worker-commands} up to
         * where it stood when the worker joined, so that a job cancelled while the worker was down is not run. Past
         * it runs go ahead (Kafka unreachable for commands must not stop the worker).
         */
        @WithDefault("30s")
        Duration catchUpTimeout();
    }
}
