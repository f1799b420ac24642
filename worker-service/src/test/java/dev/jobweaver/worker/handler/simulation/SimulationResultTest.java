package dev.jobweaver.worker.handler.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.Results;
import dev.jobweaver.sdk.Deadline;
import dev.jobweaver.sdk.RunContext;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A SIMULATION job whose payload carries {@code input} or {@code results} reports what it received as its result,
 * within the result bound.
 */
class SimulationResultTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theResultIsTheInputAndTheResultsReceived() throws Exception {
        JsonNode input = JSON.readTree("{\"customer\":42}");
        JsonNode results = JSON.readTree("{\"extract\":{\"rows\":3},\"check\":null}");

        JsonNode result = SimulationHandler.received(run(input, results));

        assertThat(result).isEqualTo(JSON.readTree(
                "{\"input\":{\"customer\":42},\"results\":{\"extract\":{\"rows\":3},\"check\":null}}"));
    }

    @Test
    void onlyWhatWasReceivedIsShown() throws Exception {
        JsonNode result = SimulationHandler.received(run(JSON.readTree("\"hook body\""), null));

        assertThat(result).isEqualTo(JSON.readTree("{\"input\":\"hook body\"}"));
        assertThat(run(null, null).hasData()).isFalse();
    }

    @Test
    void resultsTooLargeAreLeftOutAndSaidSo() throws Exception {
        ObjectNode results = JSON.createObjectNode();
        for (int i = 0; i < 3; i++) {
            results.put("node-" + i, "x".repeat(30_000));
        }
        JsonNode input = JSON.readTree("{\"small\":true}");

        JsonNode result = SimulationHandler.received(run(input, results));

        assertThat(Results.tooLarge(result)).isFalse();
        assertThat(result).isEqualTo(JSON.readTree("{\"input\":{\"small\":true},\"resultsOmitted\":true}"));
    }

    @Test
    void anInputTooLargeIsLeftOutToo() {
        JsonNode input = JSON.getNodeFactory().textNode("y".repeat(Results.MAX_BYTES + 1));

        JsonNode result = SimulationHandler.received(run(input, JSON.createObjectNode()));

        assertThat(result.path("inputOmitted").asBoolean()).isTrue();
        assertThat(result.path("resultsOmitted").asBoolean()).isTrue();
        assertThat(result.has("input")).isFalse();
    }

    private static RunContext<JobPayload> run(JsonNode input, JsonNode results) {
        return new RunContext<>(UUID.randomUUID(), 1, null, new JobPayload(List.of()),
                Deadline.in(Duration.ofSeconds(5), false), input, results);
    }
}
