package dev.jobweaver.scheduler.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.scheduler.observability.AttemptCounters.AttemptOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The ended-attempts counter: one series per job type, tenant and outcome, up to a limit, then "other". */
class AttemptCountersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void eachJobTypeTenantAndOutcomeIsCountedApart() {
        AttemptCounters counters = new AttemptCounters(registry, 10);

        counters.ended("EMAIL", "acme", AttemptOutcome.COMPLETED);
        counters.ended("EMAIL", "acme", AttemptOutcome.COMPLETED);
        counters.ended("EMAIL", "acme", AttemptOutcome.RETRIED);
        counters.ended("REPORT", "globex", AttemptOutcome.DEAD_LETTERED);

        assertThat(counts()).isEqualTo(Map.of(
                "EMAIL/acme/completed", 2.0,
                "EMAIL/acme/retried", 1.0,
                "REPORT/globex/dead_lettered", 1.0));
    }

    @Test
    void pastTheLimitNewCombinationsAreCountedAsOtherAndKnownOnesStillCountApart() {
        AttemptCounters counters = new AttemptCounters(registry, 2);
        counters.ended("A", "t1", AttemptOutcome.COMPLETED);
        counters.ended("B", "t2", AttemptOutcome.COMPLETED);

        counters.ended("C", "t3", AttemptOutcome.RETRIED);
        counters.ended("D", "t4", AttemptOutcome.RETRIED);
        counters.ended("A", "t1", AttemptOutcome.COMPLETED);

        assertThat(counts()).isEqualTo(Map.of(
                "A/t1/completed", 2.0,
                "B/t2/completed", 1.0,
                "other/other/retried", 2.0));
    }

    private Map<String, Double> counts() {
        Map<String, Double> counts = new TreeMap<>();
        for (Counter counter : registry.find(AttemptCounters.NAME).counters()) {
            counts.put(counter.getId().getTag("job_type") + "/" + counter.getId().getTag("tenant") + "/"
                    + counter.getId().getTag("outcome"), counter.count());
        }
        return counts;
    }
}
