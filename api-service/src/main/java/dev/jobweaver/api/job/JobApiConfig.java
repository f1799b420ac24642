package dev.jobweaver.api.job;

import io.quarkus.runtime.configuration.MemorySize;
import dev.jobweaver.common.job.Priority;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of the API service ({@code jobweaver.api.*}); defaults are the bounds of SPEC.md. */
@ConfigMapping(prefix = "jobweaver.api")
public interface JobApiConfig {

    /** Bounds a submitted job must respect. */
    Validation validation();

    /** The live workers, read for what pending jobs wait for. */
    Workers workers();

    /**
     * The priority of a job that names none, by where it comes from; a job submitted to {@code POST /api/jobs} without
     * one is NORMAL. Where a handler declares a priority for its type, it applies to the jobs still without one after
     * this: a source's default comes first.
     */
    DefaultPriority defaultPriority();

    /** {@link #defaultPriority()}. */
    interface DefaultPriority {

        /** A job a hook's call makes: a caller on the other side is waiting for it. */
        @WithDefault("HIGH")
        Priority hook();

        /** A job a schedule's tick makes. */
        @WithDefault("NORMAL")
        Priority schedule();
    }

    /** The live workers ({@code worker-heartbeats}), read for what pending jobs wait for. */
    interface Workers {

        /** How often the live workers are read from the database ({@code LiveWorkerView}). */
        @WithDefault("1s")
        java.time.Duration refreshInterval();
    }

    /** How submissions are stored together, and how the relay hands their {@code JobCreatedEvent}s to Kafka. */
    Publish publish();

    /** The outbox: its bound, deleting published rows, and the sweeper that publishes what the relay could not. */
    Outbox outbox();

    /** Paging of {@code GET /api/jobs}. */
    Paging paging();

    /** How {@code job-status} is written into the read model. */
    Status status();

    /** How many submissions the API takes in at once, so that large ones cannot exhaust its memory. */
    Admission admission();

    /** How long an {@code Idempotency-Key} is remembered, and the cleanup of expired ones. */
    Idempotency idempotency();

    /** Cancels and deletes of jobs, handed to the scheduler on {@code job-commands}. */
    Commands commands();

    /** {@code POST /api/jobs/{id}/cancel} and {@code DELETE /api/jobs/{id}}. */
    interface Commands {

        /**
         * How long a cancel or delete waits for Kafka to acknowledge its command ({@code acks=all}) before it is
         * answered 503 {@code API.SERVICE_UNAVAILABLE} with {@code Retry-After} ({@code publish.retry-after}); the
         * answer comes within this plus a tenth (at least 250 ms). The command producer's {@code max.block.ms},
         * {@code request.timeout.ms} and {@code delivery.timeout.ms} derive from it as the relay's do from
         * {@code publish.delivery-timeout}, so the producer has given up on a command by the time its 503 is sent
         * and never sends it later. Min 2s.
         */
        @WithDefault("5s")
        Duration timeout();
    }

    /** The {@code Idempotency-Key} header of {@code POST /api/jobs}. */
    interface Idempotency {

        /**
         * How long a key is remembered: within it, the same key of the same tenant gets the first answer again (same
         * body) or 409 {@code API.IDEMPOTENCY_CONFLICT} (another body); after it, the key is free again.
         */
        @WithDefault("24h")
        Duration ttl();

        /**
         * How often expired keys are deleted (also {@code jobweaver.api.idempotency.cleanup-interval} in
         * {@code @Scheduled}). An expired key that is still there is treated as absent, so this only bounds the
         * table's size.
         */
        @WithDefault("10m")
        Duration cleanupInterval();

        /** Most expired keys one delete statement takes; a full batch is followed by the next at once. */
        @WithDefault("5000")
        int cleanupBatchSize();
    }

    /** Back-pressure on {@code POST /api/jobs} by the size of the bodies being handled. */
    interface Admission {

        /**
         * Most request-body bytes of {@code POST /api/jobs} handled at once (a body without {@code Content-Length}
         * counts as {@code validation.max-body-bytes}). A request that would cross it is answered 503
         * {@code API.OVERLOADED} with {@code Retry-After} before its body is read; one request is always admitted when
         * none is in flight. Each admitted byte costs several on the heap while its job is parsed, stored and published
         * (the body, the parsed payload, its JSON column, the event, the producer's batch): without a budget, 256
         * concurrent submissions of 60 KiB took the 64 MB heap to an OutOfMemoryError (README, Decisions). No-op jobs
         * of a few hundred bytes never come near it.
         */
        @WithDefault("4194304")
        long maxBytesInFlight();

        /** The {@code Retry-After} of an {@code API.OVERLOADED} answer. */
        @WithDefault("1s")
        Duration retryAfter();
    }

    /** Validation bounds; every one is reported by field name when broken. */
    interface Validation {

        /** Largest request body in bytes; a larger one is answered 413. */
        @WithDefault("65536")
        int maxBodyBytes();

        /**
         * Largest payload of a job of any type, in bytes of its JSON: a submission's, and the job of a schedule, a hook
         * or a workflow node, whose bodies may be larger than a submission's; a larger one is answered 400.
         */
        @WithDefault("65536")
        int maxPayloadBytes();

        /** Most steps a job may have. */
        @WithDefault("100")
        int maxSteps();

        /** Longest SLEEP step, in milliseconds. */
        @WithDefault("60000")
        long maxDurationMs();

        /** Longest simulated latency of an HTTP_CALL step, in milliseconds. */
        @WithDefault("60000")
        long maxLatencyMs();

        /** Most iterations of a COMPUTE step. */
        @WithDefault("100000000")
        long maxIterations();

        /** Longest message of a LOG or FAIL step, in characters. */
        @WithDefault("4096")
        int maxMessageLength();

        /** Longest url of an HTTP_CALL step, in characters. */
        @WithDefault("2048")
        int maxUrlLength();

        /** Highest accepted {@code maxRetryCount} (the lowest is 0). */
        @WithDefault("10")
        int maxRetryCount();

        /** {@code maxRetryCount} of a request that does not give one. */
        @WithDefault("3")
        int defaultRetryCount();
    }

    /** Storing submissions, and the relay's Kafka producer, whose own timeouts are derived from {@link #deliveryTimeout()}. */
    interface Publish {

        /**
         * How long the relay's producer keeps trying to deliver a committed job's event, through a broker outage,
         * before it leaves the event to the sweeper. A submission never waits for it: it is answered once the job is
         * committed. The producer's {@code max.block.ms} (20 %), {@code request.timeout.ms} (50 %) and
         * {@code delivery.timeout.ms} (70 %) are derived from it. An outage shorter than this is bridged by the
         * producer itself, which sends the moment the broker is back; a longer one by the sweeper.
         */
        @WithDefault("30s")
        Duration deliveryTimeout();

        /** The {@code Retry-After} of a 503 answer (database unavailable, outbox over its bound). */
        @WithDefault("5s")
        Duration retryAfter();

        /**
         * Most submissions stored as one group: one multi-row insert, one commit, one hand-off to the relay. A group
         * is whatever arrived while the previous group was being stored, never waited for.
         */
        @WithDefault("256")
        int maxBatchSize();

        /**
         * Group inserts in flight at once (the group commit's batches in flight). With 1, a group holds everything
         * that arrived while the previous one was being inserted: the largest groups and the fewest statements, the
         * behaviour the benchmark's figures are measured with. More than 1 trades smaller groups (more statements per
         * job) for less waiting behind an insert.
         */
        @WithDefault("1")
        int batchesInFlight();

        /**
         * The job-created producer's {@code linger.ms}: how long a record may wait for others to share its produce
         * request. Adds at most this much to a job's way to the scheduler (not to its submission's answer). A group
         * of submissions already goes out together, so waiting longer buys little.
         */
        @WithDefault("1ms")
        Duration linger();
    }

    /** The outbox's bound, deletes of published rows, and the sweeper. */
    interface Outbox {

        /**
         * Most unpublished jobs the outbox may hold (rows Kafka has not acknowledged, across every API instance) before
         * a submission is answered 503 with Retry-After instead of stored. Kafka being down delays jobs; this bounds
         * how many wait, and so how long the recovery takes once it is back.
         */
        @WithDefault("100000")
        long maxBacklogJobs();

        /** Most bytes of unpublished events the outbox may hold, counted like {@link #maxBacklogJobs()}. */
        @WithDefault("256M")
        MemorySize maxBacklogBytes();

        /**
         * How often the backlog (rows, bytes, oldest row's age) is measured in the database for the bound, the metrics
         * and readiness. Between two measurements the instance adds what it stored itself.
         */
        @WithDefault("1s")
        Duration backlogRefresh();

        /**
         * How often the sweeper looks for outbox rows the relay did not publish (the interval of its rounds in the
         * outbox's republish loop).
         */
        @WithDefault("5s")
        Duration sweepInterval();

        /**
         * How much older than the relay's delivery timeout (plus its grace) a row must be before any instance's
         * sweeper publishes it: until then the relay that stored it may still deliver it. Rows that this instance's
         * previous run left behind (same {@code jobweaver.kafka.instance-id}) are taken at once.
         */
        @WithDefault("5s")
        Duration sweepMargin();

        /** Most rows one sweep claims; a sweep that found a full batch claims the next at once. */
        @WithDefault("500")
        int sweepBatchSize();

        /**
         * How long a published job's outbox row may wait for its delete, so that the rows of the jobs published
         * meanwhile go in the same statement: at 100 jobs/s a delete per group is a statement and a commit per job;
         * 250 ms makes it one every 250 ms. If the service dies first, those rows' events are published once more,
         * which the scheduler ignores. 0 deletes each group's rows at once.
         */
        @WithDefault("250ms")
        Duration deleteDelay();

        /** Most acknowledged rows one delete takes; once this many wait, they are deleted without waiting. */
        @WithDefault("2000")
        int deleteBatchSize();
    }

    /** Paging of the job list. */
    interface Paging {

        /** Page size when the request gives none. */
        @WithDefault("20")
        int defaultSize();

        /** Largest page size a client may ask for. */
        @WithDefault("100")
        int maxSize();
    }

    /** The read model's writing of {@code job-status}. */
    interface Status {

        /**
         * How long a job's non-terminal status ({@code PENDING}, {@code RUNNING}) may be held back before it is written,
         * so that a status following soon after is written instead of both. A client may see {@code RUNNING} this much
         * later; a terminal status is never held. 0 holds nothing. In a 20,000-job burst a job's {@code COMPLETED}
         * follows its {@code RUNNING} by up to about a second (the runs in flight): 1 s gave 0.96-1.04 row updates per
         * job, 250 ms gave 1.5, no hold 1.75-1.91.
         */
        @WithDefault("1s")
        Duration hold();

        /**
         * How many records the polls with a status held may carry between them ({@code StatusHold}): a held status
         * keeps its whole poll in memory until it is written. A second of polls in a burst at 500 jobs a second
         * carries about 1,500 status events; a consumer catching up on a backlog takes 500 a poll, many times a
         * second, and without a bound held them all (the API ran out of its heap restarting under a backlog). Past
         * it the oldest held statuses are written before they are due.
         */
        @WithDefault("2000")
        int holdMaxRecords();
    }
}
