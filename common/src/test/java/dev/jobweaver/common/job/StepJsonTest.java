package dev.jobweaver.common.job;

import static dev.jobweaver.common.JsonFixture.MAPPER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class StepJsonTest {

    static Stream<Step> everyStep() {
        return Stream.of(
                new Step.Sleep(1500L),
                new Step.Log("hello"),
                new Step.Compute(1_000_000L),
                new Step.HttpCall("https://example.test/x", 250L),
                new Step.Fail("boom"),
                new Step.Fail("flaky", 2));
    }

    @ParameterizedTest
    @MethodSource("everyStep")
    void roundTripsThroughJson(Step step) throws Exception {
        String json = MAPPER.writeValueAsString(step);
        assertThat(MAPPER.readValue(json, Step.class)).isEqualTo(step);
    }

    @ParameterizedTest
    @MethodSource("everyStep")
    void writesTheActionDiscriminatorOfTheOriginalWireFormat(Step step) throws Exception {
        JsonNode node = MAPPER.readTree(MAPPER.writeValueAsString(step));
        assertThat(node.get("action").asText()).isIn(Step.ACTIONS);
    }

    @Test
    void readsTheOriginalApiExample() throws Exception {
        JobPayload payload = MAPPER.readValue(
                "{\"steps\":[{\"action\":\"LOG\",\"message\":\"hi\"},{\"action\":\"SLEEP\",\"durationMs\":10},"
                        + "{\"action\":\"HTTP_CALL\",\"url\":\"http://x\",\"latencyMs\":5}]}",
                JobPayload.class);
        assertThat(payload.steps()).containsExactly(
                new Step.Log("hi"), new Step.Sleep(10L), new Step.HttpCall("http://x", 5L));
    }

    @Test
    void aFailStepWithoutTimesKeepsTheOriginalWireFormat() throws Exception {
        assertThat(MAPPER.writeValueAsString(new Step.Fail("boom"))).isEqualTo("{\"action\":\"FAIL\",\"message\":\"boom\"}");
    }

    @Test
    void aFailStepWithTimesFailsOnlyThatManyAttempts() throws Exception {
        Step.Fail flaky = (Step.Fail) MAPPER.readValue("{\"action\":\"FAIL\",\"message\":\"x\",\"times\":1}", Step.class);
        assertThat(flaky.failsAttempt(1)).isTrue();
        assertThat(flaky.failsAttempt(2)).isFalse();
        assertThat(new Step.Fail("always").failsAttempt(7)).isTrue();
    }

    @Test
    void rejectsAnUnknownAction() {
        assertThatThrownBy(() -> MAPPER.readValue("{\"action\":\"REBOOT\"}", Step.class))
                .isInstanceOf(InvalidTypeIdException.class)
                .hasMessageContaining("REBOOT");
    }

    @Test
    void rejectsAStepWithoutAction() {
        assertThatThrownBy(() -> MAPPER.readValue("{\"message\":\"hi\"}", Step.class))
                .isInstanceOf(InvalidTypeIdException.class)
                .hasMessageContaining("action");
    }

    @Test
    void leavesAMissingNumberNullSoValidationCanNameIt() throws Exception {
        assertThat(MAPPER.readValue("{\"action\":\"SLEEP\"}", Step.class)).isEqualTo(new Step.Sleep(null));
    }

    @Test
    void payloadRoundTripsWithEveryStep() throws Exception {
        JobPayload payload = new JobPayload(everyStep().toList());
        assertThat(MAPPER.readValue(MAPPER.writeValueAsString(payload), JobPayload.class)).isEqualTo(payload);
        assertThat(payload.steps()).hasSize(List.copyOf(Step.ACTIONS).size() + 1);
    }
}
