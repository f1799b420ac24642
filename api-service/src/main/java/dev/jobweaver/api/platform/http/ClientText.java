package dev.jobweaver.api.platform.http;

/**
 * A client's text as a refusal quotes it: cut short, so that a message stays readable and bounded whatever was sent.
 */
public final class ClientText {

    private ClientText() {
    }

    /** Its first 40 characters. */
    public static String cut(String value) {
        return cut(value, 40);
    }

    /** Its first {@code max} characters, "..." when there were more. */
    public static String cut(String value, int max) {
        return value.length() > max ? value.substring(0, max) + "..." : value;
    }

    /** Cut, its control characters shown as {@code ?}, for text that lands in a log line or a header. */
    public static String shown(String value) {
        return cut(value).replaceAll("\\p{Cntrl}", "?");
    }
}
