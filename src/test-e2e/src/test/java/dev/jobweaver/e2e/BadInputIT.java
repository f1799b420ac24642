package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.JobWeaverClient.Answer;
import dev.jobweaver.e2e.support.Jobs;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Scenario 10: malformed requests through the packaged API all get 4xx ErrorResponses; the platform keeps working. */
@HealthyPlatform
class BadInputIT {

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("not JSON", "{\"jobType\":", 400),
                Arguments.of("empty body", "", 400),
                Arguments.of("unknown action", Jobs.job("[{\"action\":\"REBOOT\"}]", 0), 400),
                Arguments.of("step without action", Jobs.job("[{\"message\":\"hi\"}]", 0), 400),
                Arguments.of("empty step list", Jobs.job("[]", 0), 400),
                Arguments.of("negative duration", Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":-5}]", 0), 400),
                Arguments.of("missing duration", Jobs.job("[{\"action\":\"SLEEP\"}]", 0), 400),
                Arguments.of("duration as text", Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":\"long\"}]", 0), 400),
                Arguments.of("duration over the bound", Jobs.job("[{\"action\":\"SLEEP\",\"durationMs\":60001}]", 0), 400),
                Arguments.of("iterations over the bound",
                        Jobs.job("[{\"action\":\"COMPUTE\",\"iterations\":100000001}]", 0), 400),
                Arguments.of("malformed job type",
                        "{\"jobType\":\"MINING RIG\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}}", 400),
                Arguments.of("malformed queue", Jobs.job("[{\"action\":\"LOG\",\"message\":\"x\"}]", 0)
                        .replaceFirst("\\{", "{\"queue\":\"Q 1\","), 400),
                Arguments.of("retries over the bound", Jobs.job("[{\"action\":\"LOG\",\"message\":\"x\"}]", 11), 400),
                Arguments.of("body over 64 KiB",
                        Jobs.job("[{\"action\":\"LOG\",\"message\":\"" + "x".repeat(70_000) + "\"}]", 0), 413));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void aMalformedSubmissionGetsAClear4xx(String what, String body, int status) {
        Answer answer = E2ePlatform.api().submit(body);
        assertThat(answer.status()).as(what + ": " + answer.rawBody()).isEqualTo(status);
        assertErrorResponse(answer, status);
    }

    @Test
    void aWrongContentTypeGets415() {
        Answer answer = E2ePlatform.api().submit(Jobs.noop(), "text/plain");
        assertThat(answer.status()).isEqualTo(415);
        assertErrorResponse(answer, 415);
    }

    @Test
    void aJobIdThatIsNotAUuidGets400AndAnUnknownOneGets404() {
        Answer notUuid = E2ePlatform.api().get("/api/jobs/not-a-uuid");
        assertThat(notUuid.status()).isEqualTo(400);
        assertErrorResponse(notUuid, 400);
        Answer unknown = E2ePlatform.api().get("/api/jobs/" + UUID.randomUUID());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().path("errorCode").asText()).isEqualTo("API.JOB_NOT_FOUND");
    }

    @AfterAll
    static void thePlatformStillWorks() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(Jobs.noop());
        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);
        assertThat(job.path("status").asText()).isEqualTo("COMPLETED");
    }

    private static void assertErrorResponse(Answer answer, int status) {
        assertThat(answer.body()).as("an ErrorResponse body: " + answer.rawBody()).isNotNull();
        assertThat(answer.body().path("status").asInt()).isEqualTo(status);
        assertThat(answer.body().path("errorCode").asText()).startsWith("API.");
        assertThat(answer.body().path("message").asText()).isNotBlank().doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(answer.body().path("timestamp").asText()).isNotBlank();
    }
}
