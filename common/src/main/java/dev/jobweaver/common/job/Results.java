package dev.jobweaver.common.job;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;

/** The bound on what a handler may report as a job's result, checked by the worker and by every consumer. */
public final class Results {

    /** The most bytes of JSON a result may take: 64 KiB. */
    public static final int MAX_BYTES = 65_536;

    private Results() {
    }

    /** Whether {@code result}, written as JSON, is longer than {@link #MAX_BYTES}. */
    public static boolean tooLarge(JsonNode result) {
        return result.toString().getBytes(StandardCharsets.UTF_8).length > MAX_BYTES;
    }
}
