package dev.jobweaver.api.job.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Unit tests of the strict parsing: Jackson's failures become messages naming the field and the expected type. */
class JobRequestReaderTest {

    private final JobRequestReader reader = new JobRequestReader(new ObjectMapper().findAndRegisterModules());

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
        assertThat(request.payload().steps()).containsExactly(new Step.HttpCall("http://a.example", 5L),
                new Step.Compute(7L));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":\"5\"}]}}|MALFORMED_JSON|payload.steps[0].durationMs must be an integer, got a string",
            "{\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":true}]}}|MALFORMED_JSON|payload.steps[0].durationMs must be an integer",
            "{\"payload\":{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":2.0}]}}|MALFORMED_JSON|payload.steps[0].durationMs must be an integer",
            "{\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":[]}]}}|MALFORMED_JSON|payload.steps[0].message must be a string, got an array",
            "{\"payload\":{\"steps\":[{\"action\":\"NOPE\"}]}}|INVALID_JOB_REQUEST|payload.steps[0].action 'NOPE' is not a known action; valid actions are SLEEP, LOG, COMPUTE, HTTP_CALL, FAIL",
            "{\"payload\":{\"steps\":[{\"message\":\"x\"}]}}|INVALID_JOB_REQUEST|payload.steps[0].action is required",
            "{\"jobType\":\"OTHER\"}|INVALID_JOB_REQUEST|jobType 'OTHER' is not a known value; valid values are SIMULATION",
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
