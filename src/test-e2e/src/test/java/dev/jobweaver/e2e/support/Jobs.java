package dev.jobweaver.e2e.support;

/** Request bodies for the scenarios, in the API's wire format. */
public final class Jobs {

    private Jobs() {
    }

    /** One LOG step: the cheapest job there is. */
    public static String noop() {
        return job("[{\"action\":\"LOG\",\"message\":\"no-op\"}]", 0);
    }

    /** Sleeps {@code millis}. */
    public static String sleeping(long millis) {
        return job("[{\"action\":\"SLEEP\",\"durationMs\":" + millis + "}]", 0);
    }

    /** Fails every attempt with {@code message}. */
    public static String failing(String message, int maxRetryCount) {
        return job("[{\"action\":\"LOG\",\"message\":\"about to fail\"},{\"action\":\"FAIL\",\"message\":\""
                + message + "\"}]", maxRetryCount);
    }

    /** One step of every kind that succeeds. */
    public static String everyStep() {
        return job("""
                [{"action":"LOG","message":"hello from e2e"},
                 {"action":"SLEEP","durationMs":50},
                 {"action":"COMPUTE","iterations":100000},
                 {"action":"HTTP_CALL","url":"https://example.test/api","latencyMs":20}]""", 1);
    }

    /** {@code body}, a job's JSON object, owned by {@code tenant}. */
    public static String ofTenant(String body, String tenant) {
        return "{\"tenant\":\"" + tenant + "\"," + body.substring(1);
    }

    /** A SIMULATION job with these steps (a JSON array). */
    public static String job(String stepsJson, int maxRetryCount) {
        return "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":" + stepsJson + "},\"maxRetryCount\":"
                + maxRetryCount + "}";
    }
}
