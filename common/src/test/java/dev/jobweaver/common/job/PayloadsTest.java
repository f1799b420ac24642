package dev.jobweaver.common.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aSimulationPayloadReadsBackAsItsSteps() {
        JsonNode tree = Payloads.tree(new JobPayload(List.of(new Step.Log("hi"), new Step.Sleep(5L))));

        assertThat(Payloads.simulation(tree).steps()).containsExactly(new Step.Log("hi"), new Step.Sleep(5L));
        assertThat(problems(JobType.SIMULATION, tree)).isEmpty();
    }

    @Test
    void aTreeEqualsTheTreeParsedFromItsJson() throws Exception {
        JsonNode tree = Payloads.tree(new JobPayload(List.of(new Step.Sleep(5L))));

        assertThat(JSON.readTree(tree.toString())).isEqualTo(tree);
    }

    @Test
    void aSimulationPayloadIsCheckedByTheStepRules() throws Exception {
        assertThat(problems(JobType.SIMULATION, JSON.readTree("{\"steps\":[]}")))
                .containsExactly("payload.steps must hold at least one step");
        assertThat(problems(JobType.SIMULATION, JSON.readTree("{\"steps\":[{\"action\":\"DANCE\"}]}")))
                .singleElement().asString().startsWith("payload is not a SIMULATION payload").contains("DANCE");
        assertThat(problems(JobType.SIMULATION, JSON.readTree("{\"method\":\"GET\",\"url\":\"https://x.org\"}")))
                .singleElement().asString().startsWith("payload is not a SIMULATION payload");
    }

    @Test
    void aValidHttpPayloadBreaksNothing() {
        JsonNode tree = Payloads.tree(new HttpCallPayload("post", "https://example.org/hook",
                Map.of("Content-Type", "application/json"), "{}", List.of(200, 201), 10_000L));

        assertThat(problems(JobType.HTTP, tree)).isEmpty();
        assertThat(Payloads.http(tree).expectedStatus()).containsExactly(200, 201);
    }

    @Test
    void anHttpPayloadNamesWhatItBreaks() throws Exception {
        assertThat(problems(JobType.HTTP, JSON.readTree("{\"url\":\"https://x.org\"}"))).singleElement().asString()
                .startsWith("payload.method is required");
        assertThat(problems(JobType.HTTP, JSON.readTree("{\"method\":\"FETCH\",\"url\":\"https://x.org\"}")))
                .singleElement().asString().startsWith("payload.method must be one of").contains("FETCH");
        assertThat(problems(JobType.HTTP, JSON.readTree("{\"method\":\"GET\"}"))).singleElement().asString()
                .startsWith("payload.url is required");
        assertThat(problems(JobType.HTTP, JSON.readTree("{\"method\":\"GET\",\"url\":\"ftp://x.org/f\"}")))
                .containsExactly("payload.url must be an absolute http or https URL");
        assertThat(problems(JobType.HTTP, JSON.readTree(
                "{\"method\":\"GET\",\"url\":\"https://x.org\",\"expectedStatus\":[200,700]}")))
                .containsExactly("payload.expectedStatus entries must be between 100 and 599, got 700");
        assertThat(problems(JobType.HTTP, JSON.readTree(
                "{\"method\":\"GET\",\"url\":\"https://x.org\",\"timeoutMs\":0}"))).singleElement().asString()
                .startsWith("payload.timeoutMs must be between 1 and");
        assertThat(problems(JobType.HTTP, JSON.readTree(
                "{\"method\":\"GET\",\"url\":\"https://x.org\",\"headers\":{\"Bad Name\":\"x\"}}")))
                .containsExactly("payload.headers has an invalid header name 'Bad Name'");
        assertThat(problems(JobType.HTTP, JSON.readTree(
                "{\"method\":\"GET\",\"url\":\"https://x.org\",\"headers\":{\"X-A\":\"a\\r\\nInjected: 1\"}}")))
                .containsExactly("payload.headers.X-A must be a string without line breaks");
        assertThat(problems(JobType.HTTP, JSON.readTree("{\"method\":\"GET\",\"url\":\"https://x.org\",\"extra\":1}")))
                .singleElement().asString().startsWith("payload is not an HTTP payload").contains("extra");
    }

    @Test
    void aPayloadMustBeAnObject() throws Exception {
        assertThat(problems(JobType.HTTP, null)).containsExactly("payload is required");
        assertThat(problems(JobType.SIMULATION, JSON.readTree("[1]"))).containsExactly("payload must be a JSON object");
    }

    private static List<String> problems(JobType type, JsonNode payload) {
        List<String> out = new ArrayList<>();
        Payloads.check(type, payload, StepRules.Limits.DEFAULTS, out, 10);
        return out;
    }
}
