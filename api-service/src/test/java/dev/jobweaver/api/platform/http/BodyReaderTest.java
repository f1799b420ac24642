package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.validation.Validation;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A body record read from the bytes an endpoint took: strict, validated, worded by {@link BodyErrors}. */
class BodyReaderTest {

    private static final BodyReader BODIES = new BodyReader(new ObjectMapper().findAndRegisterModules(),
            Validation.buildDefaultValidatorFactory().getValidator());

    @Body(rule = ApiErrorCode.INVALID_SCHEDULE_REQUEST, example = "{\"tenant\":\"acme\"}")
    record Filter(@Checked(TenantName.class) String tenant, @Checked(IsoInstant.class) String after,
                  @Checked(NoNul.class) String note, Boolean paused,
                  @Expected("an object (a job)") ObjectNode job) {
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String refusal(Runnable call) {
        ApiException e = catchThrowableOfType(ApiException.class, call::run);
        assertThat(e).isNotNull();
        return e.code().code() + " " + e.getMessage();
    }

    @Test
    void noBodyOrOnlyWhitespaceIsNoneWhenOptionalAndEmptyWhenRequired() {
        assertThat(BODIES.optional(null, Filter.class)).isNull();
        assertThat(BODIES.optional(bytes(""), Filter.class)).isNull();
        assertThat(BODIES.optional(bytes(" \r\n\t"), Filter.class)).isNull();
        assertThat(refusal(() -> BODIES.required(bytes(" "), Filter.class)))
                .isEqualTo("API.MALFORMED_JSON request body is empty; expected a JSON object such as"
                        + " {\"tenant\":\"acme\"}");
    }

    @Test
    void aBodyIsBoundStrictlyAndNullIsNoObject() {
        assertThat(BODIES.optional(bytes("{\"tenant\":\"acme\",\"paused\":true,\"job\":null}"), Filter.class))
                .isEqualTo(new Filter("acme", null, null, true, null));
        assertThat(refusal(() -> BODIES.optional(bytes("null"), Filter.class))).isEqualTo("API.MALFORMED_JSON request"
                + " body must be a JSON object, got null; expected one such as {\"tenant\":\"acme\"}");
        assertThat(refusal(() -> BODIES.optional(bytes("{\"paused\":\"true\"}"), Filter.class)))
                .isEqualTo("API.MALFORMED_JSON paused must be true or false, got a string");
        assertThat(refusal(() -> BODIES.optional(bytes("{\"paused\":1}"), Filter.class)))
                .isEqualTo("API.MALFORMED_JSON paused must be true or false, got an integer");
        assertThat(refusal(() -> BODIES.optional(bytes("{\"job\":[]}"), Filter.class)))
                .isEqualTo("API.MALFORMED_JSON job must be an object (a job), got an array");
    }

    @Test
    void brokenRulesAreTheBodysCodeNamingTheirFields() {
        assertThat(refusal(() -> BODIES.optional(bytes("{\"tenant\":\"Not_A_Tenant\",\"after\":\"yesterday\","
                + "\"note\":\"a\\u0000\"}"), Filter.class))).isEqualTo("API.INVALID_SCHEDULE_REQUEST"
                + " after must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got 'yesterday';"
                + " note must not contain the NUL character;"
                + " tenant must match [a-z0-9][a-z0-9-]{0,62}, got 'Not_A_Tenant'");
    }
}
