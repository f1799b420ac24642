package dev.jobweaver.api.platform.http;

/**
 * The {@code X-Trace-Id} header of the original JobWeaver API: a client's own correlation id. A request that carries
 * one gets it back on its answer, whatever the answer ({@link HttpEdgeRoutes}), and a job submitted with one is logged
 * with it, so that a client's id leads to the job's id and its trace. The trace context stays W3C {@code traceparent}:
 * this header never starts or joins a trace.
 */
public final class ClientTraceId {

    /** The header's name. */
    public static final String HEADER = "X-Trace-Id";
    /** The longest value: room for a UUID, a W3C trace id or a request id with a prefix, not for a payload. */
    public static final int MAX_LENGTH = 128;

    private ClientTraceId() {
    }

    /**
     * What is wrong with {@code value}, or null: 1 to {@value #MAX_LENGTH} visible ASCII characters ({@code !} to
     * {@code ~}), nothing that could break a log line or a header.
     */
    public static String problem(String value) {
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            return "header " + HEADER + " must be 1 to " + MAX_LENGTH + " visible ASCII characters, got "
                    + value.length();
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= 0x20 || c > 0x7e) {
                return "header " + HEADER + " must be 1 to " + MAX_LENGTH + " visible ASCII characters; character "
                        + (i + 1) + " is U+" + String.format("%04X", (int) c);
            }
        }
        return null;
    }
}
