package dev.jobweaver.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.UUID;

/**
 * Reading the API's answers leniently: a field that is absent or malformed is null, never an exception, so that the
 * workload reports what it could not read instead of stopping; and an answer's text cut short for a console line.
 */
final class ApiText {

    private static final int SHORT = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    private ApiText() {
    }

    /** The text of {@code name} in the JSON object {@code body}; null when absent or not JSON. */
    static String field(String body, String name) {
        try {
            JsonNode node = JSON.readTree(body);
            return node == null ? null : node.path(name).asText(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code text} as a UUID; null when null or not one. */
    static UUID uuid(String text) {
        try {
            return text == null ? null : UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code text} as an ISO-8601 instant; null when null or not one. */
    static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** At most the first 200 characters of {@code s}, "..." marking a cut; "" for null. */
    static String shorten(String s) {
        return s == null ? "" : s.length() > SHORT ? s.substring(0, SHORT) + "..." : s;
    }

    /**
     * Sleeps {@code ms} on the calling (virtual) thread; an interrupt keeps the thread's flag and ends the workload
     * with an unchecked exception, so that a polling loop never spins on after it.
     */
    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
