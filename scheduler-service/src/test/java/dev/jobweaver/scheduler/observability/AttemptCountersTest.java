package dev.jobweaver.scheduler.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.scheduler.observability.AttemptCounters.AttemptOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The ended-attempts counter: one series per job type, tenant and outcome, up to a limit, then "other". */
class AttemptCountersTest {

    private record Ended(String jobType, String tenant, AttemptOutcome outcome) {
    }

    static Stream<Arguments> rounds() {
        return Stream.of(
                Arguments.of("each job type, tenant and outcome is counted apart", 10,
                        List.of(new Ended("EMAIL", "acme", AttemptOutcome.COMPLETED),
                                new Ended("EMAIL", "acme", AttemptOutcome.COMPLETED),
                                new Ended("EMAIL", "acme", AttemptOutcome.RETRIED),
                                new Ended("REPORT", "globex", AttemptOutcome.DEAD_LETTERED)),
                        Map.of("EMAIL/acme/completed", 2.0, "EMAIL/acme/retried", 1.0,
                                "REPORT/globex/dead_lettered", 1.0)),
                Arguments.of("past the limit new combinations count as other and known ones still apart", 2,
                        List.of(new Ended("A", "t1", AttemptOutcome.COMPLETED),
                                new Ended("B", "t2", AttemptOutcome.COMPLETED),
                                new Ended("C", "t3", AttemptOutcome.RETRIED),
                                new Ended("D", "t4", AttemptOutcome.RETRIED),
                                new Ended("A", "t1", AttemptOutcome.COMPLETED)),
                        Map.of("A/t1/completed", 2.0, "B/t2/completed", 1.0, "other/other/retried", 2.0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rounds")
    void countsEachEndedAttemptInItsSeries(String name, int limit, List<Ended> ended, Map<String, Double> expected) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AttemptCounters counters = new AttemptCounters(registry, limit);

        ended.forEach(e -> counters.ended(e.jobType(), e.tenant(), e.outcome()));

        assertThat(counts(registry)).isEqualTo(expected);
    }

    private static Map<String, Double> counts(SimpleMeterRegistry registry) {
        Map<String, Double> counts = new TreeMap<>();
        for (Counter counter : registry.find(AttemptCounters.NAME).counters()) {
            counts.put(counter.getId().getTag("job_type") + "/" + counter.getId().getTag("tenant") + "/"
                    + counter.getId().getTag("outcome"), counter.count());
        }
        return counts;
    }
}
