package dev.jobweaver.scheduler;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;

/** Typed configuration of the scheduler: dispatch, retries, leases, commands, recurring schedules and metrics. */
@ConfigMapping(prefix = "jobweaver.scheduler")
public interface SchedulerConfig {

    /** How due jobs are claimed and dispatched. */
    Dispatch dispatch();

    /** How long a failed attempt waits before its retry. */
    Backoff backoff();

    /** How long an attempt may run before the scheduler counts it as lost. */
    Lease lease();

    /** Gauges refreshed from the database. */
    Metrics metrics();

    /** Clients' cancels and deletes of jobs ({@code job-commands}). */
    Commands commands();

    /** The ticks of recurring schedules ({@code schedules} in, {@code schedule-fired} out). */
    Schedules schedules();

    /** Concurrency limits of this deployment; tenants' own limits come from {@code tenant-limits}. */
    Limits limits();

    /** The orchestration of workflow runs ({@code workflow-runs} in, {@code workflow-progress} out). */
    Workflows workflows();

    /** Workflow settings. */
    /** The workers that announce themselves, and the jobs that wait for one. */
    Workers workers();

    /** The workers that announce themselves ({@code worker-heartbeats}), and the jobs that wait for one. */
    interface Workers {

        /**
         * How often each replica reads the live workers from the database, and releases the jobs that waited for a
         * worker that now lives: the longest a started worker waits for its first job, beyond its heartbeat's way.
         */
        @WithDefault("1s")
        Duration refreshInterval();

        /**
         * How long a claimed job that no live worker serves is set aside before it is claimed again, should no worker
         * come for it meanwhile (one that comes releases it at once).
         */
        @WithDefault("10m")
        Duration parkFor();

        /**
         * How long a run handed back by a worker without a handler for its type waits before it is dispatched again
         * (to a worker that declares the type). Short: it only keeps a run from bouncing at full speed while the
         * workers' heartbeats catch up with a rebalance.
         */
        @WithDefault("1s")
        Duration handBackDelay();
    }

    interface Workflows {

        /**
         * The most bytes (as JSON) of dependencies' results that one {@code workflow-progress} record carries. Nodes
         * that become ready together are spread over as many records as it takes; a node whose own dependencies'
         * results exceed it fails (its job is never made): a Kafka record is at most 1 MiB by default, and the
         * record also carries the run's nodes. 900 KiB.
         */
        @WithDefault("921600")
        int maxReadyResultsBytes();
    }

    /** Dispatch settings. */
    interface Dispatch {

        /**
         * Period of the dispatch poll, a backstop: new work wakes the dispatcher at once, and a one-shot timer wakes
         * it when the next job for later (or retry) becomes due, so this bounds only how late work that another
         * replica stored for later, or left behind, is noticed.
         */
        @WithDefault("1s")
        Duration interval();

        /**
         * Rows claimed per round; a round that fills its batch is followed at once by another. A round costs a few
         * database round trips and one wait for Kafka whatever its size, so under a backlog bigger rounds mean
         * fewer of those per job; a lone job is dispatched alone at once either way.
         */
        @WithDefault("500")
        int batchSize();

        /**
         * Most attempts {@code RUNNING} at once over all replicas (approximately: replicas may each overshoot by
         * one round); 0 means no limit. A dispatched run waits in {@code run-job} until a worker has a free slot,
         * and its lease runs meanwhile: keeping this near the workers' total slots keeps that wait far below the
         * lease grace, so a backlog is never mistaken for lost runs. The default is four times the slots of one
         * worker (512): a run counts until its outcome is applied, and in a burst of no-op jobs at 2,000 jobs/s the
         * way from dispatch to applied outcome alone holds about a thousand; the queue in {@code run-job} stays
         * about a second of no-op jobs.
         */
        @WithDefault("2048")
        int maxInFlight();

        /**
         * How often each priority level is the one a claim looks at first: HIGH, NORMAL and LOW each get their weight's
         * share of the claims (70, 20 and 10: 70%, 20% and 10%), then fall through to the others, so no level
         * starves. Weights need not add up to 100; a weight of 0 is looked at only after the others.
         */
        PriorityWeights priorityWeights();
    }

    /** The weights of the three priority levels in dispatch claims. */
    interface PriorityWeights {

        @WithDefault("70")
        int high();

        @WithDefault("20")
        int normal();

        @WithDefault("10")
        int low();
    }

    /** Retry backoff: {@code delay = min(base * 2^retriesSoFar, cap) + random(0..jitter)}. */
    interface Backoff {

        /** Delay before the first retry; it doubles with every retry. */
        @WithDefault("5s")
        Duration base();

        /** Upper bound of the exponential part of the delay. */
        @WithDefault("300s")
        Duration cap();

        /** Upper bound of the random delay added to spread retries of jobs that failed together; 0 disables it. */
        @WithDefault("1s")
        Duration jitter();
    }

    /** Lease settings. */
    interface Lease {

        /**
         * Added to the longest run the job's steps allow. It must cover the time a dispatched run can wait in
         * {@code run-job} before a worker starts it, and the outcome's way back.
         */
        @WithDefault("60s")
        Duration grace();

        /**
         * The longest run assumed for a job that sets no {@code timeoutMs} and whose payload gives no estimate (an
         * HTTP job without a request timeout); it must cover the worker's own bound for such a run.
         */
        @WithDefault("10m")
        Duration defaultRun();

        /** Estimated CPU time of one million COMPUTE iterations (deliberately pessimistic). */
        @WithDefault("50ms")
        Duration computePerMillionIterations();

        /** Period of the sweep that retries or dead-letters attempts whose lease has passed. */
        @WithDefault("5s")
        Duration sweepInterval();

        /** Expired leases handled per sweep transaction. */
        @WithDefault("50")
        int sweepBatchSize();

        /**
         * How long after this instance's start, and after its consumers of outcomes regain the broker, it expires no
         * lease (none expires while they are out of contact). Outcomes that came while no scheduler ran, or while the
         * broker was down, wait in Kafka or in the workers' producers, and are applied within this: a lease that ran
         * out meanwhile says nothing yet about its worker. 0 sweeps as soon as the consumers are in their group.
         */
        @WithDefault("30s")
        Duration sweepAfterStart();
    }

    /** Metrics settings. */
    interface Metrics {

        /**
         * Period at which the pending-depth (jobs due and waiting) and running gauges are refreshed from the
         * database; each refresh reads only those jobs, however many wait for a later start.
         */
        @WithDefault("5s")
        Duration refreshInterval();

        /**
         * Period at which the gauge of jobs waiting for a later start is refreshed. Counting them reads every one
         * (about 50 ms of database CPU per million), so it runs far less often than the other gauges.
         */
        @WithDefault("60s")
        Duration delayedRefreshInterval();

        /**
         * Period of the backlog gauges' refresh: one grouped query of the due {@code PENDING} jobs by priority and
         * tenant (depth and oldest age). It reads every due job, so it runs less often than the plain counts.
         */
        @WithDefault("10s")
        Duration backlogRefreshInterval();

        /**
         * Period at which the table and index sizes ({@code jobweaver_store_table_bytes},
         * {@code jobweaver_store_index_bytes}) are read again: one catalog query for all tables. Tables grow over
         * hours, so a minute loses nothing the alerts look at.
         */
        @WithDefault("60s")
        Duration storeSizesRefreshInterval();

        /**
         * Tenants given series of their own by the backlog gauges: those with the deepest backlogs; the others are
         * summed under {@code tenant="other"}, so that a platform with many tenants cannot flood Prometheus.
         */
        @WithDefault("20")
        int backlogMaxTenants();

        /**
         * Distinct {@code (job_type, tenant, outcome)} series of the ended-attempts counter; later combinations are
         * counted under {@code job_type="other", tenant="other"}, since both names are chosen by clients.
         */
        @WithDefault("1000")
        int attemptSeriesLimit();
    }

    /** Command settings. */
    interface Commands {

        /**
         * How long a cancel whose job has not been ingested is kept. The API sends a cancel only for a job it has
         * accepted, so its job arrives unless it was lost; a placeholder older than this is deleted, so that cancels
         * of jobs that never arrive do not pile up.
         */
        @WithDefault("7d")
        Duration earlyCancelTtl();

        /** Period of the sweep that deletes expired cancels of jobs not ingested (one indexed DELETE). */
        @WithDefault("1h")
        Duration earlyCancelSweepInterval();
    }

    /** Settings of the schedule ticker. */
    interface Schedules {

        /**
         * How late a tick may be and still fire as itself. A schedule whose next tick is later than this (every
         * replica was down, the database unreachable) has misfired: {@code FIRE_ONCE} fires one catch-up job for the
         * latest tick due, {@code SKIP} none, and both go on from the next tick to come.
         */
        @WithDefault("60s")
        Duration misfireThreshold();

        /** Schedules claimed per ticker round; a round that fills its batch is followed at once by another. */
        @WithDefault("500")
        int batchSize();

        /**
         * Most ticks one schedule fires in one round; the rest fire in the rounds that follow at once. Only a schedule
         * whose interval is far shorter than the misfire threshold can have more due ticks than this.
         */
        @WithDefault("100")
        int maxTicksPerRound();

        /**
         * Period of the ticker's backstop round. A Vert.x timer wakes the ticker for the earliest tick and every
         * changed schedule wakes it, so this bounds only how late a tick that another replica left is noticed.
         */
        @WithDefault("1s")
        Duration backstopInterval();

        /**
         * How long a fired tick's job counts as on its way through the API when it is not in {@code job_executions}
         * yet: within this, {@code overlap: SKIP} skips the next tick as if the job were {@code PENDING}. After it,
         * the job is taken as lost (the API refused it) and the schedule fires again.
         */
        @WithDefault("10m")
        Duration overlapIngestGrace();
    }

    /**
     * Concurrency limits set by configuration. Unlike {@code dispatch.max-in-flight}, which replicas may overshoot
     * together by a round, these are never exceeded: the claims of jobs they apply to are serialized over all
     * replicas, which must therefore be configured alike. While neither these nor any tenant's or workflow's limit is
     * set, dispatch runs as if limits did not exist.
     */
    interface Limits {

        /** Most jobs {@code RUNNING} at once over all replicas and tenants; absent: no such limit. */
        OptionalInt maxRunning();

        /**
         * Most jobs of a type {@code RUNNING} at once, by job type name ({@code HTTP_CALL}, {@code SIMULATION}, ...);
         * a type absent here has no such limit. A name that is not a job type stops the start.
         */
        Map<String, Integer> jobTypes();

        /**
         * Most jobs of a queue {@code RUNNING} at once, by queue name ({@code default}, {@code billing}, ...); a queue
         * absent here has no such limit. A name that is not a queue's stops the start.
         */
        Map<String, Integer> queues();
    }
}
