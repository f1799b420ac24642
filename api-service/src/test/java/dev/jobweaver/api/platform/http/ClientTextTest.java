package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a refusal quotes a client's text and names the kind of a value it sent. */
class ClientTextTest {

    @Test
    void quotesAClientsTextCutAndDescribesEveryKindOfValue() throws Exception {
        assertThat(ClientText.cut("x".repeat(40))).isEqualTo("x".repeat(40));
        assertThat(ClientText.cut("x".repeat(41))).isEqualTo("x".repeat(40) + "...");
        assertThat(ClientText.cut("x".repeat(61), 60)).isEqualTo("x".repeat(60) + "...");
        assertThat(ClientText.shown("a\tb")).isEqualTo("a?b");
        JsonNode kinds = new ObjectMapper().readTree("[\"s\",1,1.5,true,{},[],null]");
        List<String> described = new ArrayList<>();
        kinds.forEach(node -> described.add(BodyErrors.kind(node)));
        assertThat(described).containsExactly("a string", "an integer", "a decimal number", "a boolean", "an object",
                "an array", "null");
    }

    @Test
    void aMemberOfAnotherTypeIsMalformedAndNamedByItsField() throws Exception {
        ApiException e = BodyErrors.wrongType("o", "an object (a job)", new ObjectMapper().readTree("[]"));
        assertThat(e.code()).isEqualTo(ApiErrorCode.MALFORMED_JSON);
        assertThat(e.getMessage()).isEqualTo("o must be an object (a job), got an array");
    }
}
