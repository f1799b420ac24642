package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The strict body reading and the typed member readers the request readers share, and the words of their 400s. */
class JsonBodyTest {

    private static final String EXAMPLE = "{\"a\":1}";
    private static final ApiErrorCode RULE = ApiErrorCode.INVALID_SCHEDULE_REQUEST;

    private enum Colour { RED, GREEN }

    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonBody json = new JsonBody(mapper);

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private JsonNode tree(String text) throws Exception {
        return mapper.readTree(text);
    }

    private static ApiException refusal(Runnable call) {
        return catchThrowableOfType(ApiException.class, call::run);
    }

    @Test
    void readsAnObjectAndAnswersBlankAsNothing() {
        assertThat(json.parse(bytes("{\"a\":1}"), EXAMPLE).get("a").intValue()).isEqualTo(1);
        assertThat(json.parse(bytes(" \n "), EXAMPLE)).isNull();
        assertThat(json.parseOptionalObject(new byte[0], EXAMPLE)).isNull();
        assertThat(json.parseOptionalObject(bytes("  "), EXAMPLE)).isNull();
    }

    @Test
    void anEmptyBodyNamesTheExample() {
        ApiException e = refusal(() -> json.parse(new byte[0], EXAMPLE));

        assertThat(e.code()).isEqualTo(ApiErrorCode.MALFORMED_JSON);
        assertThat(e.getMessage()).isEqualTo("request body is empty; expected a JSON object such as {\"a\":1}");
        assertThat(refusal(() -> json.parseObject(bytes(" "), EXAMPLE)).getMessage()).isEqualTo(e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"a\":1} {}       | request body is not valid JSON: Trailing token (of type START_OBJECT) found",
        "{\"a\":1,\"a\":2}  | request body is not valid JSON: Duplicate field 'a'",
        "{                  | request body is not valid JSON: Unexpected end-of-input",
    })
    void trailingDataDuplicateKeysAndBrokenJsonAreMalformed(String body, String start) {
        ApiException e = refusal(() -> json.parse(bytes(body), EXAMPLE));

        assertThat(e.code()).isEqualTo(ApiErrorCode.MALFORMED_JSON);
        assertThat(e.getMessage()).startsWith(start).containsPattern("\\(line 1, column \\d+\\)$");
    }

    @Test
    void aValueIsReadAsBoundBodiesAreWhereBlankIsNotJson() {
        ApiException e = refusal(() -> json.parseValue(bytes("  "), EXAMPLE));

        assertThat(e.getMessage()).startsWith("request body is not valid JSON: No content to map");
    }

    @Test
    void aBodyThatIsNoObjectSaysWhatItIs() {
        assertThat(refusal(() -> json.parseObject(bytes("[1]"), EXAMPLE)).getMessage())
                .isEqualTo("request body must be a JSON object such as {\"a\":1}, got an array");
        assertThat(refusal(() -> json.parseOptionalObject(bytes("\"x\""), EXAMPLE)).getMessage())
                .isEqualTo("request body must be a JSON object such as {\"a\":1}, got a string");
        assertThat(JsonBody.notAnObject(null).getMessage())
                .isEqualTo("request body must be a JSON object, got nothing");
    }

    @Test
    void readsMembersByTypeNullWhenAbsentOrNull() throws Exception {
        JsonNode root = tree("{\"s\":\"x\",\"i\":7,\"o\":{},\"a\":[],\"n\":null}");

        assertThat(JsonBody.text(root, "s")).isEqualTo("x");
        assertThat(JsonBody.integer(root, "i", 1, 10, RULE)).isEqualTo(7);
        assertThat(JsonBody.object(root, "o", "o", "")).isEmpty();
        assertThat(JsonBody.array(root, "a", "a", "an array")).isEmpty();
        assertThat(JsonBody.text(root, "n")).isNull();
        assertThat(JsonBody.integer(root, "missing", 1, 10, RULE)).isNull();
        assertThat(JsonBody.object(root, "n", "n", "")).isNull();
        assertThat(JsonBody.array(root, "missing", "missing", "an array")).isNull();
    }

    @Test
    void aMemberOfAnotherTypeIsMalformedAndNamedByItsField() throws Exception {
        JsonNode root = tree("{\"s\":1,\"i\":1.5,\"o\":[],\"a\":{}}");

        ApiException text = refusal(() -> JsonBody.text(root, "s", "nodes[2].s"));
        assertThat(text.code()).isEqualTo(ApiErrorCode.MALFORMED_JSON);
        assertThat(text.getMessage()).isEqualTo("nodes[2].s must be a string, got an integer");
        assertThat(refusal(() -> JsonBody.integer(root, "i", 1, 10, RULE)).getMessage())
                .isEqualTo("i must be an integer, got a decimal number");
        assertThat(refusal(() -> JsonBody.integer(root, "i", "an integer from 1 to 10", 1, 10, RULE)).getMessage())
                .isEqualTo("i must be an integer from 1 to 10, got a decimal number");
        assertThat(refusal(() -> JsonBody.object(root, "o", "o", " (a job)")).getMessage())
                .isEqualTo("o must be an object (a job), got an array");
        assertThat(refusal(() -> JsonBody.array(root, "a", "a", "an array of ids")).getMessage())
                .isEqualTo("a must be an array of ids, got an object");
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "11, 11", "99999999999999999999, 99999999999999999999", "-2147483649, -2147483649"})
    void anIntegerOutsideItsRangeBreaksTheRuleHoweverLarge(String value, String shown) throws Exception {
        JsonNode root = tree("{\"limit\":" + value + "}");

        ApiException e = refusal(() -> JsonBody.integer(root, "limit", 1, 10, RULE));

        assertThat(e.code()).isEqualTo(RULE);
        assertThat(e.getMessage()).isEqualTo("limit must be between 1 and 10, got " + shown);
    }

    @Test
    void storedTextRefusesNulWithTheCallersCode() throws Exception {
        JsonNode root = tree("{\"name\":\"a\\u0000b\"}");

        ApiException e = refusal(() -> JsonBody.storedText(root, "name", "name", RULE));

        assertThat(e.code()).isEqualTo(RULE);
        assertThat(e.getMessage()).isEqualTo("name must not contain the NUL character");
    }

    @Test
    void anUnknownFieldIsRefusedWhenTheCallerDeclaresItsFields() throws Exception {
        JsonBody.checkFields(tree("{\"name\":\"x\"}"), Set.of("name"), RULE, "it has name");

        JsonNode misspelt = tree("{\"name\":\"x\",\"rol\\u0001es\":[]}");

        ApiException e = refusal(() -> JsonBody.checkFields(misspelt, Set.of("name"), RULE, "it has name"));

        assertThat(e.code()).isEqualTo(RULE);
        assertThat(e.getMessage()).isEqualTo("unknown field 'rol?es'; it has name");
    }

    @Test
    void sharedRulesAddTheirProblemsRatherThanThrow() {
        List<String> problems = new ArrayList<>();

        JsonBody.checkName(" ", 5, problems);
        JsonBody.checkName("abcdef", 5, problems);
        JsonBody.checkName("abc", 5, problems);
        JsonBody.checkTenant("Acme", problems);
        JsonBody.checkTenant("acme", problems);
        UUID none = JsonBody.uuid("workflowId", "1-2-3-4-5", problems);
        UUID id = JsonBody.uuid("workflowId", UuidText.EXAMPLE, problems);
        Colour fallback = JsonBody.enumValue("colour", "BLUE", Colour.class, Colour.RED, problems);

        assertThat(none).isNull();
        assertThat(id).isEqualTo(UUID.fromString(UuidText.EXAMPLE));
        assertThat(fallback).isEqualTo(Colour.RED);
        assertThat(JsonBody.enumValue("colour", null, Colour.class, null, problems)).isNull();
        assertThat(JsonBody.enumValue("colour", "GREEN", Colour.class, null, problems)).isEqualTo(Colour.GREEN);
        assertThat(problems).hasSize(5);
        assertThat(problems.get(0)).isEqualTo("name is required (1 to 5 characters)");
        assertThat(problems.get(1)).isEqualTo("name must be at most 5 characters, got 6");
        assertThat(problems.get(2)).isEqualTo("tenant must match [a-z0-9][a-z0-9-]{0,62}, got 'Acme'");
        assertThat(problems.get(3))
                .isEqualTo("workflowId must be a UUID such as " + UuidText.EXAMPLE + ", got '1-2-3-4-5'");
        assertThat(problems.get(4)).isEqualTo("colour 'BLUE' is not a known value; valid values are RED, GREEN");
    }

    @Test
    void quotesAClientsTextCutAndDescribesEveryKindOfValue() throws Exception {
        assertThat(JsonBody.cut("x".repeat(40))).isEqualTo("x".repeat(40));
        assertThat(JsonBody.cut("x".repeat(41))).isEqualTo("x".repeat(40) + "...");
        assertThat(JsonBody.cut("x".repeat(61), 60)).isEqualTo("x".repeat(60) + "...");
        assertThat(JsonBody.shown("a\tb")).isEqualTo("a?b");
        JsonNode kinds = tree("[\"s\",1,1.5,true,{},[],null]");
        List<String> described = new ArrayList<>();
        kinds.forEach(node -> described.add(JsonBody.describe(node)));
        assertThat(described).containsExactly("a string", "an integer", "a decimal number", "a boolean", "an object",
                "an array", "null");
    }
}
