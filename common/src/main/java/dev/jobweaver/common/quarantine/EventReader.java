package dev.jobweaver.common.quarantine;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.function.Function;

/**
 * Turns a consumed record's raw value into its event, or into the reason it cannot be one. Channels consume raw bytes
 * and parse here, so that every kind of bad value (not JSON, wrong types, a missing field, a field out of range)
 * takes one path: quarantine, with the original bytes kept.
 */
public final class EventReader {

    private EventReader() {
    }

    /** What reading a value gave: the event, or why there is none. */
    public sealed interface Read<T> {
        /** A usable event. */
        record Ok<T>(T event) implements Read<T> {
        }

        /** A value that is not a usable event. */
        record Bad<T>(QuarantineReason reason, String detail) implements Read<T> {
        }
    }

    /**
     * Reads {@code value} as {@code type} and checks it with {@code rules}.
     *
     * @param rules names the first rule a parsed event breaks, or returns null if it is usable
     */
    public static <T> Read<T> read(ObjectMapper mapper, byte[] value, Class<T> type, Function<T, String> rules) {
        if (value == null || value.length == 0) {
            return new Read.Bad<>(QuarantineReason.UNREADABLE, "the value is empty; expected a "
                    + type.getSimpleName());
        }
        T parsed;
        try {
            parsed = mapper.readValue(value, type);
        } catch (Exception e) {
            return new Read.Bad<>(QuarantineReason.UNREADABLE, "not a " + type.getSimpleName() + ": "
                    + Failures.describe(e));
        }
        if (parsed == null) {
            return new Read.Bad<>(QuarantineReason.UNREADABLE, "the value is JSON null; expected a "
                    + type.getSimpleName());
        }
        String problem;
        try {
            problem = rules.apply(parsed);
        } catch (RuntimeException e) {
            problem = "could not be checked: " + Failures.describe(e);
        }
        return problem == null ? new Read.Ok<>(parsed) : new Read.Bad<>(QuarantineReason.INVALID, problem);
    }
}
