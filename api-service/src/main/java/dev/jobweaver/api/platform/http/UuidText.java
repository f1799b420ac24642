package dev.jobweaver.api.platform.http;

import java.util.regex.Pattern;

/**
 * The one textual form of a UUID the API takes in paths, query parameters and bodies: 36 characters, hyphens in place.
 * {@link java.util.UUID#fromString} alone also takes shortened groups ({@code 1-2-3-4-5}), which would name a
 * different id than the client wrote.
 */
public final class UuidText {

    /** A UUID to show in error messages. */
    public static final String EXAMPLE = "3fa85f64-5717-4562-b3fc-2c963f66afa6";

    private static final Pattern CANONICAL =
            Pattern.compile("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");

    private UuidText() {
    }

    /** Whether {@code text} is a UUID in its canonical form; false for null. */
    public static boolean matches(String text) {
        return text != null && CANONICAL.matcher(text).matches();
    }
}
