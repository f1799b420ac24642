package dev.jobweaver.scheduler.observability;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@code jobweaver_jobs_attempts_ended_total{job_type,tenant,outcome}}: every ended attempt, by what it led to, with a
 * bounded number of series.
 *
 * <p>Job types and tenants are chosen by clients, so past {@code limit} series a new combination is counted under
 * {@code job_type="other", tenant="other"}. The counters are kept in a map: the hot path is one lookup and an increment,
 * without building a meter id per outcome.
 */
final class AttemptCounters {

    static final String NAME = "jobweaver.jobs.attempts.ended";
    static final String OTHER = "other";

    private final MeterRegistry registry;
    private final int limit;
    private final ConcurrentMap<Key, Counter> counters = new ConcurrentHashMap<>();

    AttemptCounters(MeterRegistry registry, int limit) {
        this.registry = registry;
        this.limit = Math.max(limit, 0);
    }

    private record Key(String jobType, String tenant, String outcome) {
    }

    /** An attempt of a job of {@code jobType} and {@code tenant} ended and led to {@code outcome}. */
    void ended(String jobType, String tenant, AttemptOutcome outcome) {
        Key key = new Key(jobType, tenant, outcome.label());
        Counter counter = counters.get(key);
        if (counter == null) {
            // Over the limit only new combinations fold into "other"; a race may let a few past it, which is harmless.
            if (counters.size() >= limit) {
                key = new Key(OTHER, OTHER, outcome.label());
            }
            counter = counters.computeIfAbsent(key, k -> Counter.builder(NAME)
                    .description("Attempts ended, by what they led to: completed, retried, dead_lettered")
                    .tag("job_type", k.jobType()).tag("tenant", k.tenant()).tag("outcome", k.outcome())
                    .register(registry));
        }
        counter.increment();
    }

    /** What an ended attempt led to. */
    enum AttemptOutcome {
        /** It succeeded: the job is COMPLETED. */
        COMPLETED("completed"),
        /** It failed (or its lease expired) and a retry is scheduled. */
        RETRIED("retried"),
        /** It failed with no retry left (or the job could not be run at all): FAILED and dead-lettered. */
        DEAD_LETTERED("dead_lettered");

        private final String label;

        AttemptOutcome(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }
}
