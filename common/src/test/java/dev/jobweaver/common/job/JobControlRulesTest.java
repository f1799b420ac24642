package dev.jobweaver.common.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobControlRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-26T00:00:00Z");

    @Test
    void aFullValidControlBreaksNothing() {
        JobControl control = new JobControl(Priority.HIGH, NOW.plusSeconds(3600), 5_000L, List.of(0L, 1_000L),
                "team-a", Map.of("env", "prod", "app.kubernetes.io/name", "billing"));

        assertThat(problems(control)).isEmpty();
    }

    @Test
    void eachBrokenRuleNamesItsField() {
        assertThat(problems(control(NOW.plusSeconds(366L * 24 * 3600), null, null, null, null)))
                .singleElement().asString().startsWith("runAt must be at most 365 days");
        assertThat(problems(control(null, 0L, null, null, null))).singleElement().asString()
                .startsWith("timeoutMs must be between 1 and 86400000");
        assertThat(problems(control(null, 86_400_001L, null, null, null))).singleElement().asString()
                .startsWith("timeoutMs");
        assertThat(problems(control(null, null, List.of(), null, null))).singleElement().asString()
                .startsWith("retryDelaysMs must hold 1 to 10 entries");
        assertThat(problems(control(null, null, List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L), null, null)))
                .singleElement().asString().startsWith("retryDelaysMs must hold 1 to 10 entries, got 11");
        assertThat(problems(control(null, null, List.of(5L, -1L), null, null))).singleElement().asString()
                .startsWith("retryDelaysMs[1] must be between 0");
        assertThat(problems(control(null, null, null, "Team_A", null))).singleElement().asString()
                .startsWith("tenant must match");
        assertThat(problems(control(null, null, null, "-a", null))).singleElement().asString()
                .startsWith("tenant must match");
        assertThat(problems(control(null, null, null, "a".repeat(64), null))).singleElement().asString()
                .startsWith("tenant must match");
        assertThat(problems(new JobControl(null, null, null, null, null, null, "Images")))
                .containsExactly("queue must match [a-z0-9][a-z0-9-]{0,62}, got 'Images'");
        assertThat(problems(new JobControl(null, null, null, null, null, null, "images-eu"))).isEmpty();
        assertThat(problems(control(null, null, null, null, Map.of("bad key", "x")))).singleElement().asString()
                .startsWith("labels has an invalid key 'bad key'");
        assertThat(problems(control(null, null, null, null, Map.of("k", "v".repeat(256))))).singleElement()
                .asString().startsWith("labels.k must be a string of at most 255");
    }

    @Test
    void atMostSixteenLabels() {
        Map<String, String> labels = new HashMap<>();
        for (int i = 0; i < 17; i++) {
            labels.put("k" + i, "v");
        }
        assertThat(problems(control(null, null, null, null, labels))).singleElement().asString()
                .isEqualTo("labels must hold at most 16 pairs, got 17");
        labels.remove("k16");
        assertThat(problems(control(null, null, null, null, labels))).isEmpty();
    }

    @Test
    void aRunAtInThePastIsAllowed() {
        assertThat(problems(control(NOW.minusSeconds(3600), null, null, null, null))).isEmpty();
    }

    private static JobControl control(Instant runAt, Long timeoutMs, List<Long> delays, String tenant,
                                      Map<String, String> labels) {
        return new JobControl(null, runAt, timeoutMs, delays, tenant, labels);
    }

    private static List<String> problems(JobControl control) {
        List<String> out = new ArrayList<>();
        JobControlRules.check(control, NOW, out);
        return out;
    }
}
