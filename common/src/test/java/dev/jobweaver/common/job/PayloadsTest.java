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
    void everyTypeMayCarryInputAndResultsBesideItsInstructions() throws Exception {
        JsonNode simulation = JSON.readTree("{\"steps\":[{\"action\":\"LOG\",\"message\":\"hi\"}],"
                + "\"input\":{\"day\":1},\"results\":{\"extract\":{\"rows\":5}}}");
        JsonNode http = JSON.readTree("{\"method\":\"POST\",\"url\":\"https://example.com/x\",\"input\":[1,2]}");

        assertThat(problems(JobType.SIMULATION, simulation)).isEmpty();
        assertThat(Payloads.simulation(simulation).steps()).containsExactly(new Step.Log("hi"));
        assertThat(Payloads.input(simulation).get("day").asInt()).isEqualTo(1);
        assertThat(Payloads.results(simulation).get("extract").get("rows").asInt()).isEqualTo(5);
        assertThat(simulation.has("input")).isTrue();
        assertThat(problems(JobType.HTTP, http)).isEmpty();
        assertThat(Payloads.http(http).url()).isEqualTo("https://example.com/x");
        assertThat(Payloads.results(http)).isNull();
    }

    @Test
    void resultsThatAreNotAnObjectAreNamed() throws Exception {
        JsonNode payload = JSON.readTree("{\"steps\":[{\"action\":\"LOG\",\"message\":\"hi\"}],\"results\":[1]}");

        assertThat(problems(JobType.SIMULATION, payload)).containsExactly("payload.results must be an object of results by node id");
    }

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

    @Test
    void aPayloadOfATeamsOwnTypeIsItsHandlersBusinessSaveForWhatTheDatabaseCannotStore() throws Exception {
        JobType resize = JobType.of("image.resize");

        assertThat(problems(resize, JSON.readTree("{\"image\":\"s3://b/k.png\",\"sizes\":[64,128],\"steps\":7}")))
                .isEmpty();
        assertThat(problems(resize, JSON.readTree("{}"))).isEmpty();
        assertThat(problems(resize, JSON.readTree("[1]"))).containsExactly("payload must be a JSON object");
        assertThat(problems(resize, JSON.readTree("{\"a\":{\"b\":[\"ok\",\"x\\u0000y\"]}}"))).containsExactly(
                "payload.a.b[1] must not contain the NUL character (U+0000), which the database cannot store");
        assertThat(problems(resize, JSON.readTree("{\"a\":{\"k\\u0000\":1}}"))).containsExactly(
                "a field name in payload.a must not contain the NUL character (U+0000), which the database cannot store");
    }

    private static List<String> problems(JobType type, JsonNode payload) {
        List<String> out = new ArrayList<>();
        Payloads.check(type, payload, StepRules.Limits.DEFAULTS, out, 10);
        return out;
    }
}
