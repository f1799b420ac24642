package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.EnumMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The job-control fields of the bench's bodies, the priority mix and the spread of delays. */
class ControlTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void withoutControlTheBodyIsTheKindsOwn() {
        for (JobKind kind : JobKind.values()) {
            assertThat(Control.NONE.body(kind)).isSameAs(kind.body());
        }
    }

    @Test
    void aPriorityIsAddedToTheNoOpBody() throws Exception {
        String body = Control.of(Priority.HIGH).body(JobKind.NOOP);
        assertThat(body).isEqualTo("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
                + "\"message\":\"bench\"}]},\"maxRetryCount\":3,\"priority\":\"HIGH\"}");
        JsonNode node = JSON.readTree(body);
        assertThat(node.get("priority").asText()).isEqualTo("HIGH");
        assertThat(node.has("delayMs")).isFalse();
    }

    @Test
    void aDelayIsAddedAsANumberAndBothFieldsTogetherStayValidJson() throws Exception {
        JsonNode delayed = JSON.readTree(Control.delayed(2_500).body(JobKind.NOOP));
        assertThat(delayed.get("delayMs").isIntegralNumber()).isTrue();
        assertThat(delayed.get("delayMs").asLong()).isEqualTo(2_500);
        assertThat(delayed.has("priority")).isFalse();
        assertThat(delayed.get("payload").get("steps").get(0).get("action").asText()).isEqualTo("LOG");

        JsonNode both = JSON.readTree(new Control(Priority.LOW, 0).body(JobKind.SLEEPER));
        assertThat(both.get("priority").asText()).isEqualTo("LOW");
        assertThat(both.get("delayMs").asLong()).isZero();
        assertThat(both.get("maxRetryCount").asInt()).isEqualTo(3);
    }

    @Test
    void aQueueIsAddedAsTheQueueFieldAndTheFieldsWithoutOneSendNone() throws Exception {
        JsonNode queued = JSON.readTree(Control.queue("bench").body(JobKind.NOOP));
        assertThat(queued.get("queue").asText()).isEqualTo("bench");
        assertThat(queued.has("tenant")).isFalse();
        assertThat(queued.get("payload").get("steps").get(0).get("action").asText()).isEqualTo("LOG");
        JsonNode all = JSON.readTree(new Control(Priority.HIGH, 10, "t", "k:v", null, "q-1").body(JobKind.NOOP));
        assertThat(all.get("queue").asText()).isEqualTo("q-1");
        assertThat(all.get("labels").get("k").asText()).isEqualTo("v");
        assertThat(all.get("tenant").asText()).isEqualTo("t");
        // the constructor without a queue keeps its meaning: no "queue" sent, the platform's default
        Control keyed = new Control(null, -1, "t", null, "key");
        assertThat(keyed.queue()).isNull();
        assertThat(JSON.readTree(keyed.body(JobKind.NOOP)).has("queue")).isFalse();
        assertThat(new Control(null, -1, null, null, null)).isEqualTo(Control.NONE);
    }

    @Test
    void theMixIsSixtyThirtyTenInEveryTenJobs() {
        for (int from = 0; from < 100; from += 10) {
            Map<Priority, Integer> counts = new EnumMap<>(Priority.class);
            IntStream.range(from, from + 10).forEach(i -> counts.merge(Control.mixed(i), 1, Integer::sum));
            assertThat(counts).containsEntry(Priority.HIGH, 6).containsEntry(Priority.NORMAL, 3)
                    .containsEntry(Priority.LOW, 1);
        }
        // interleaved: no level waits for another's jobs to have been sent first
        assertThat(IntStream.range(0, 6).mapToObj(Control::mixed)).contains(Priority.HIGH, Priority.NORMAL,
                Priority.LOW);
    }

    @Test
    void delaysStayInTheirRangeAndCoverItEvenly() {
        int n = 2_000;
        int[] perSecond = new int[6];
        for (int i = 0; i < n; i++) {
            long delay = Control.spreadDelay(i, 2_000, 8_000);
            assertThat(delay).isBetween(2_000L, 8_000L);
            perSecond[(int) Math.min(5, (delay - 2_000) / 1_000)]++;
        }
        // each second of the six-second range gets a sixth of the jobs, give or take a few
        for (int count : perSecond) {
            assertThat(count).isBetween(n / 6 - 5, n / 6 + 5);
        }
        // the first jobs already spread over the range rather than starting at one end
        assertThat(IntStream.range(0, 5).mapToLong(i -> Control.spreadDelay(i, 2_000, 8_000)).max().orElseThrow())
                .isGreaterThan(6_000);
        assertThat(Control.spreadDelay(7, 500, 500)).isEqualTo(500);
        assertThat(Control.spreadDelay(7, 500, 500)).isEqualTo(Control.spreadDelay(7, 500, 500));
    }

    @Test
    void anEmptyDelayRangeIsRefused() {
        assertThatThrownBy(() -> Control.spreadDelay(0, 5, 4)).isInstanceOf(IllegalArgumentException.class);
    }
}
