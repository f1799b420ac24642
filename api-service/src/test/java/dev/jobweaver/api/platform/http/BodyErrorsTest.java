package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The words of a refused body, without Quarkus: bound by {@link StrictJson}'s mapper, checked by Bean Validation,
 * worded by {@link BodyErrors}. The endpoints' own cases are in their resource tests.
 */
class BodyErrorsTest {

    private static final ObjectMapper STRICT = StrictJson.strict(new ObjectMapper().findAndRegisterModules());
    private static final Validator VALIDATOR = Validation.buildDefaultValidatorFactory().getValidator();

    @Body(rule = ApiErrorCode.INVALID_HOOK_REQUEST, example = "{\"name\":\"x\"}")
    record Sample(@NotNull(message = "is required") String name, Integer count,
                  @Expected("an array of names") @Size(max = 1, message = "must hold at most {max}") List<String> tags,
                  Nested nested) {
    }

    record Nested(String id) {
    }

    @Test
    void aValueOfTheWrongTypeIsMalformedJsonNamingItsPathWhatItMustBeAndWhatCame() {
        assertThat(unreadable("{\"name\":5}")).isEqualTo(malformed("name must be a string, got an integer"));
        assertThat(unreadable("{\"count\":\"5\"}")).isEqualTo(malformed("count must be an integer, got a string"));
        assertThat(unreadable("{\"count\":1.5}")).isEqualTo(malformed("count must be an integer, got a decimal number"));
        assertThat(unreadable("{\"count\":true}")).isEqualTo(malformed("count must be an integer, got a boolean"));
        assertThat(unreadable("{\"tags\":\"a\"}")).isEqualTo(malformed("tags must be an array of names, got a string"));
        assertThat(unreadable("{\"tags\":[1]}")).isEqualTo(malformed("tags[0] must be a string, got an integer"));
        assertThat(unreadable("{\"nested\":{\"id\":[]}}")).isEqualTo(malformed("nested.id must be a string, got an array"));
    }

    @Test
    void aBodyThatIsNoObjectOrNoJsonIsMalformedJson() {
        assertThat(unreadable("[1]")).isEqualTo(malformed(
                "request body must be a JSON object, got an array; expected one such as {\"name\":\"x\"}"));
        assertThat(unreadable("{\"name\":\"a\"} {}")).startsWith(malformed("request body is not valid JSON: Trailing"));
        assertThat(unreadable("{\"name\":\"a\",\"name\":\"b\"}"))
                .startsWith(malformed("request body is not valid JSON: Duplicate field 'name'"))
                .contains("(line 1, column ");
        assertThat(unreadable("{\"name\":")).startsWith(malformed("request body is not valid JSON: "));
        assertThat(BodyErrors.empty(Sample.class).getMessage())
                .isEqualTo("request body is empty; expected a JSON object such as {\"name\":\"x\"}");
    }

    @Test
    void anUnknownFieldIsTheBodysOwnCodeNamingItAndTheFieldsItHas() {
        assertThat(unreadable("{\"nmae\":\"x\"}")).isEqualTo("API.INVALID_HOOK_REQUEST unknown field 'nmae'; the body"
                + " has name, count, tags, nested");
    }

    @Test
    void brokenRulesAreTheBodysOwnCodeEachNamingItsFieldInPathOrder() {
        ConstraintViolationException e = new ConstraintViolationException(VALIDATOR.validate(
                new Sample(null, 1, List.of("a", "b"), null)));

        ApiException refused = BodyErrors.violated(e);

        assertThat(refused.code()).isEqualTo(ApiErrorCode.INVALID_HOOK_REQUEST);
        assertThat(refused.getMessage()).isEqualTo("name is required; tags must hold at most 1");
    }

    private static String unreadable(String json) {
        JsonProcessingException e = catchThrowableOfType(JsonProcessingException.class,
                () -> STRICT.readValue(json, Sample.class));
        assertThat(e).as(json).isNotNull();
        ApiException refused = BodyErrors.unreadable(e, Sample.class);
        return refused.code().code() + " " + refused.getMessage();
    }

    private static String malformed(String message) {
        return "API.MALFORMED_JSON " + message;
    }
}
