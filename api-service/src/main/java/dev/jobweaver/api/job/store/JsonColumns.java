package dev.jobweaver.api.job.store;

import com.fasterxml.jackson.databind.DeserializationFeature;
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
}
