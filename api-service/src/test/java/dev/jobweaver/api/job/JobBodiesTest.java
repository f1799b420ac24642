package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.platform.http.ApiException;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.job.StepRules;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Unit tests of the strict parsing: Jackson's failures become messages naming the field and the expected type. */
class JobBodiesTest {

    private final JobBodies reader = new JobBodies(new ObjectMapper().findAndRegisterModules(),
            StepRules.Limits.DEFAULTS, 3);

    private ApiException refusal(String body) {
        return catchThrowableOfType(ApiException.class, () -> reader.read(body.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsTheOriginalWireFormat() {
        JobRequest request = reader.read("""
                {"jobType":"SIMULATION","payload":{"steps":[{"action":"HTTP_CALL","url":"http://a.example","latencyMs":5},
                {"action":"COMPUTE","iterations":7}]},"maxRetryCount":3,"extra":"ignored"}""".getBytes(StandardCharsets.UTF_8));

        assertThat(request.jobType()).isEqualTo(JobType.SIMULATION);
        assertThat(request.maxRetryCount()).isEqualTo(3);
        assertThat(Payloads.simulation(request.payload()).steps()).containsExactly(new Step.HttpCall("http://a.example", 5L),
                new Step.Compute(7L));
    }

    @Test
    void readsJobControlAndAnHttpPayloadWithoutTheFieldsItsTypeDoesNotKnow() {
        JobRequest request = reader.read("""
                {"jobType":"HTTP","payload":{"method":"POST","url":"https://a.example/x","body":"{}","extra":1},
                 "priority":"HIGH","runAt":"2030-01-31T09:00:00Z","timeoutMs":5000,"retryDelaysMs":[100,2000],
                 "tenant":"acme","labels":{"team":"billing","env":"prod"}}""".getBytes(StandardCharsets.UTF_8));

        assertThat(request.jobType()).isEqualTo(JobType.HTTP);
        assertThat(request.payload().has("extra")).as("dropped: the HTTP payload defines no such field").isFalse();
        assertThat(Payloads.http(request.payload()).url()).isEqualTo("https://a.example/x");
        assertThat(request.priority()).isEqualTo(Priority.HIGH);
        assertThat(request.runAt()).isEqualTo("2030-01-31T09:00:00Z");
        assertThat(request.timeoutMs()).isEqualTo(5000L);
        assertThat(request.retryDelaysMs()).containsExactly(100L, 2000L);
        assertThat(request.tenant()).isEqualTo("acme");
        assertThat(request.labels()).containsExactly(Map.entry("team", "billing"), Map.entry("env", "prod"));
    }

    @Test
    void aTypeOfATeamsOwnKeepsItsPayloadAsSentAndNeedsNone() {
        JobRequest resize = reader.read("""
                {"jobType":"image.resize","payload":{"image":"s3://b/k.png","sizes":[64,128],"steps":"not ours"}}"""
                .getBytes(StandardCharsets.UTF_8));
        JobRequest bare = reader.read("{\"jobType\":\"report.nightly\"}".getBytes(StandardCharsets.UTF_8));

        assertThat(resize.jobType()).isEqualTo(JobType.of("image.resize"));
        assertThat(resize.payload().toString())
                .isEqualTo("{\"image\":\"s3://b/k.png\",\"sizes\":[64,128],\"steps\":\"not ours\"}");
        assertThat(reader.violations(resize, java.time.Instant.now())).isEmpty();
        assertThat(bare.payload().toString()).isEqualTo("{}");
        assertThat(reader.violations(bare, java.time.Instant.now())).isEmpty();
        assertThat(refusal("{\"jobType\":\"image.resize\",\"payload\":[1]}").getMessage())
                .isEqualTo("payload must be an object, got an array");
    }

    @Test
    void aPayloadOverItsBoundIsRefusedWhateverItsTypeAndWhereverItIs() {
        JobBodies small = new JobBodies(new ObjectMapper().findAndRegisterModules(), StepRules.Limits.DEFAULTS, 3, 64);
        String big = "\"" + "x".repeat(60) + "\"";

        for (String type : new String[] {"image.resize", "HTTP"}) {
            String payload = type.equals("HTTP") ? "{\"method\":\"POST\",\"url\":\"https://a.example\",\"body\":" + big + "}"
                    : "{\"data\":" + big + "}";
            ApiException refused = catchThrowableOfType(ApiException.class, () -> small.read(
                    ("{\"jobType\":\"" + type + "\",\"payload\":" + payload + "}").getBytes(StandardCharsets.UTF_8)));
            assertThat(refused.code()).as(type).isEqualTo(ApiErrorCode.INVALID_JOB_REQUEST);
            assertThat(refused.getMessage()).as(type).startsWith("payload must be at most 64 bytes of JSON, got ");
        }
        ApiException template = catchThrowableOfType(ApiException.class, () -> small.member(new ObjectMapper().readTree(
                "{\"jobType\":\"image.resize\",\"payload\":{\"data\":" + big + "}}"), "job",
                ApiErrorCode.INVALID_SCHEDULE_REQUEST));
        assertThat(template.code()).isEqualTo(ApiErrorCode.INVALID_SCHEDULE_REQUEST);
        assertThat(template.getMessage()).startsWith("job.payload must be at most 64 bytes of JSON, got 71");
        assertThat(small.read("{\"jobType\":\"image.resize\",\"payload\":{\"a\":1}}".getBytes(StandardCharsets.UTF_8))
                .payload().toString()).isEqualTo("{\"a\":1}");
    }

    @Test
    void extraFieldsInsideStepsAreDroppedAsTheOriginalApiDid() {
        JobRequest request = reader.read("""
                {"jobType":"SIMULATION","payload":{"steps":[{"action":"LOG","message":"hi","colour":"red"}],"x":1}}"""
                .getBytes(StandardCharsets.UTF_8));

        assertThat(request.payload().toString()).doesNotContain("colour").doesNotContain("\"x\"");
        assertThat(Payloads.simulation(request.payload()).steps()).containsExactly(new Step.Log("hi"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":\"5\"}]}}|MALFORMED_JSON|payload.steps[0].durationMs must be an integer, got a string",
            "{\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":true}]}}|MALFORMED_JSON|payload.steps[0].durationMs must be an integer",
            "{\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":2.0}]}}|MALFORMED_JSON|payload.steps[0].durationMs must be an integer",
            "{\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":[]}]}}|MALFORMED_JSON|payload.steps[0].message must be a string, got an array",
            "{\"payload\":{\"steps\":[{\"action\":\"NOPE\"}]}}|INVALID_JOB_REQUEST|payload.steps[0].action 'NOPE' is not a known action; valid actions are SLEEP, LOG, COMPUTE, HTTP_CALL, FAIL",
            "{\"payload\":{\"steps\":[{\"message\":\"x\"}]}}|INVALID_JOB_REQUEST|payload.steps[0].action is required",
            "{\"jobType\":\"no such/type\"}|INVALID_JOB_REQUEST|jobType is not valid: a job type must be a letter then at most 99 letters, digits, '_', '.' or '-' ([A-Za-z][A-Za-z0-9_.-]{0,99}), got 'no such/type'",
            "{\"jobType\":7}|MALFORMED_JSON|jobType must be a string, got a number",
            "{\"priority\":\"URGENT\"}|INVALID_JOB_REQUEST|priority 'URGENT' is not a known value; valid values are HIGH, NORMAL, LOW",
            "{\"priority\":1}|MALFORMED_JSON|priority",
            "{\"runAt\":1700000000}|MALFORMED_JSON|runAt must be a string, got the number 1700000000",
            "{\"delayMs\":\"5\"}|MALFORMED_JSON|delayMs must be an integer, got a string",
            "{\"delayMs\":1.5}|MALFORMED_JSON|delayMs must be an integer",
            "{\"timeoutMs\":true}|MALFORMED_JSON|timeoutMs must be an integer",
            "{\"retryDelaysMs\":5}|MALFORMED_JSON|retryDelaysMs must be an array",
            "{\"retryDelaysMs\":[\"5\"]}|MALFORMED_JSON|retryDelaysMs[0] must be an integer, got a string",
            "{\"tenant\":7}|MALFORMED_JSON|tenant must be a string, got the number 7",
            "{\"labels\":[]}|MALFORMED_JSON|labels must be an object, got an array",
            "{\"labels\":{\"team\":3}}|MALFORMED_JSON|labels.team must be a string, got the number 3",
            "{\"jobType\":\"HTTP\",\"payload\":{\"method\":\"GET\",\"url\":5}}|MALFORMED_JSON|payload.url must be a string, got the number 5",
            "{\"jobType\":\"HTTP\",\"payload\":{\"url\":\"https://a.example\",\"expectedStatus\":[\"200\"]}}|MALFORMED_JSON|payload.expectedStatus[0] must be an integer, got a string",
            "{\"jobType\":\"HTTP\",\"payload\":{\"url\":\"https://a.example\",\"headers\":{\"X\":1}}}|MALFORMED_JSON|payload.headers.X must be a string, got the number 1",
            "{\"jobType\":0}|MALFORMED_JSON|jobType",
            "{\"maxRetryCount\":\"2\"}|MALFORMED_JSON|maxRetryCount must be an integer",
            "{\"payload\":[]}|MALFORMED_JSON|payload must be an object, got an array",
            "\"text\"|MALFORMED_JSON|request body must be a JSON object",
            "null|MALFORMED_JSON|must be a JSON object",
            "{\"jobType\":|MALFORMED_JSON|not valid JSON",
            "{} {}|MALFORMED_JSON|not valid",
    })
    void refusalsNameTheField(String body, ApiErrorCode code, String message) {
        ApiException e = refusal(body);

        assertThat(e).as(body).isNotNull();
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.getMessage()).contains(message);
    }

    @Test
    void emptyBodyIsMalformed() {
        ApiException e = catchThrowableOfType(ApiException.class, () -> reader.read(new byte[0]));

        assertThat(e.code()).isEqualTo(ApiErrorCode.MALFORMED_JSON);
        assertThat(e.getMessage()).contains("empty");
    }
}
