package dev.jobweaver.api.web.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.error.ApiErrorCode;
import dev.jobweaver.common.error.ErrorResponse;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Unit tests of the mappers: codes, headers, and nothing internal in a 500. */
class ApiExceptionMappersTest {

    private final ApiExceptionMappers mappers = new ApiExceptionMappers();

    @Test
    void unexpectedFailureIs500WithoutDetails() {
        Response response = mappers.unexpected(new IllegalStateException("password=hunter2 at db.internal:5432"));

        assertThat(response.getStatus()).isEqualTo(500);
        ErrorResponse body = (ErrorResponse) response.getEntity();
        assertThat(body.errorCode()).isEqualTo("API.INTERNAL_ERROR");
        assertThat(body.message()).doesNotContain("hunter2", "IllegalStateException", "db.internal");
    }

    @Test
    void apiExceptionKeepsItsCodeJobIdAndHeaders() {
        Response response = mappers.api(new ApiException(ApiErrorCode.SERVICE_UNAVAILABLE, "later", "job-1",
                Map.of("Retry-After", "5")));

        assertThat(response.getStatus()).isEqualTo(503);
        assertThat(response.getHeaderString("Retry-After")).isEqualTo("5");
        ErrorResponse body = (ErrorResponse) response.getEntity();
        assertThat(body.errorCode()).isEqualTo("API.SERVICE_UNAVAILABLE");
        assertThat(body.status()).isEqualTo(503);
        assertThat(body.jobId()).isEqualTo("job-1");
    }
}
