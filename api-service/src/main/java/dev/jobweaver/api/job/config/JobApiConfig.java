package dev.jobweaver.api.job.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of the API service ({@code jobweaver.api.*}); defaults are the bounds of SPEC.md. */
@ConfigMapping(prefix = "jobweaver.api")
public interface JobApiConfig {

    /** Bounds a submitted job must respect. */
    Validation validation();

    /** How a submission's {@code JobCreatedEvent} is handed to Kafka. */
    Publish publish();

    /** The outbox: deleting acknowledged rows, and the sweeper that publishes events left behind by a crash. */
    Outbox outbox();

    /** Paging of {@code GET /api/jobs}. */
    Paging paging();

    /** How {@code job-status} is written into the read model. */
    Status status();

    /** How many submissions the API takes in at once, so that large ones cannot exhaust its memory. */
    Admission admission();

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

    /** Publishing of {@code JobCreatedEvent}; the Kafka producer's own timeouts are derived from {@link #sendTimeout()}. */
    interface Publish {

        /**
         * The longest a submission waits for Kafka's acknowledgement (acks=all) before it is answered 503. The
         * producer's {@code max.block.ms} (20 %), {@code request.timeout.ms} (50 %) and {@code delivery.timeout.ms}
         * (70 %) are derived from it, so that the producer itself gives a definitive answer within this bound.
         */
        @WithDefault("5s")
        Duration sendTimeout();

        /** The {@code Retry-After} a 503 answer suggests. */
        @WithDefault("5s")
        Duration retryAfter();

        /**
         * Most submissions stored and published as one group: one multi-row insert, one hand-off to the producer, one
         * outbox delete. A group is whatever arrived while the previous group was being stored, never waited for.
         */
        @WithDefault("256")
        int maxBatchSize();

        /**
         * Group inserts in flight at once (the group commit's batches in flight). With 1, a group holds everything
         * that arrived while the previous one was being inserted: the largest groups and the fewest statements, the
         * behaviour the README's measurements were made with. A group's Kafka publish is outside this bound: a group
         * leaves it once its insert committed, so the next group is stored while earlier ones wait for Kafka whatever
         * the value. More than 1 trades smaller groups (more statements per job) for less waiting behind an insert.
         */
        @WithDefault("1")
        int batchesInFlight();

        /**
         * The job-created producer's {@code linger.ms}: how long a record may wait for others to share its produce
         * request. Adds at most this much to a submission's latency; keep it far below the send timeout. A group of
         * submissions already goes out together, so waiting longer buys little: with 64 clients in flight, 1 ms
         * instead of 5 ms took the accept p50 from 48 to 42 ms and a 20,000-job burst from 1,215-1,234 to
         * 1,392-1,421 jobs/s (docs/benchmark.md).
         */
        @WithDefault("1ms")
        Duration linger();
    }

    /** Outbox deletes and sweeping. */
    interface Outbox {

        /** How often the sweeper looks for outbox rows left behind (also {@code jobweaver.api.outbox.sweep-interval} in {@code @Scheduled}). */
        @WithDefault("5s")
        Duration sweepInterval();

        /**
         * How much older than the send timeout an outbox row must be before the sweeper publishes it: a live request
         * always finishes (acknowledged or compensated) within the send timeout, so the sweeper only sees rows whose
         * request died.
         */
        @WithDefault("10s")
        Duration sweepMargin();

        /** Most rows one sweep claims. */
        @WithDefault("100")
        int sweepBatchSize();

        /**
         * How long an acknowledged job's outbox row may wait for its delete, so that the rows of the jobs acknowledged
         * meanwhile go in the same statement. At 100 jobs/s a delete per group was a statement and a commit per job,
         * the API's second transaction per job; 250 ms makes it one every 250 ms. The 202 never waits for it. If the
         * service dies first, the sweeper publishes those rows' events once more, which the scheduler ignores. 0
         * deletes each group's rows at once.
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
    }
}
