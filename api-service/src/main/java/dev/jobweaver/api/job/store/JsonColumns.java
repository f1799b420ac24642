package dev.jobweaver.api.job.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * How jsonb columns ({@code jobs.instruction}) are written and read: a mapper of their own, so a change to the REST
 * layer's ObjectMapper can never change what is stored, and one built without classpath scanning, so it behaves the
 * same in a native executable.
 */
public final class JsonColumns {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private JsonColumns() {
    }

    /** The mapper of jsonb columns. Thread-safe; never reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** {@code value} as the text of a jsonb column; null stays null. */
    public static String write(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write a jsonb column", e);
        }
    }

    /** The text of a jsonb column read as {@code type}; null stays null. */
    public static <T> T read(String json, TypeReference<T> type) {
        return parsed(json, text -> MAPPER.readValue(text, type));
    }

    /** The text of a jsonb column as a tree; null stays null. */
    public static JsonNode tree(String json) {
        return parsed(json, MAPPER::readTree);
    }

    /** Reads a column's text. */
    private interface Parser<T> {

        T parse(String json) throws JsonProcessingException;
    }

    private static <T> T parsed(String json, Parser<T> parser) {
        if (json == null) {
            return null;
        }
        try {
            return parser.parse(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored jsonb column is not valid: " + e.getOriginalMessage(), e);
        }
    }
}
