package dev.jobweaver.bench;

/**
 * The job-control fields a bench job is submitted with, kept by the bench per job so that its figures can be grouped
 * by them: what was asked, whatever the platform recorded.
 *
 * @param priority the {@code "priority"} sent; null when none was (the platform's default, NORMAL)
 * @param delayMs the {@code "delayMs"} sent; negative when none was (start at once)
 * @param tenant the {@code "tenant"} sent; null when none was (the platform's {@code default})
 * @param label the one {@code "labels"} pair sent, as {@code key:value}; null when none was
 * @param idempotencyKey the {@code Idempotency-Key} header sent; null when none was
 * @param queue the {@code "queue"} sent; null when none was (the platform's {@code default})
 */
public record Control(Priority priority, long delayMs, String tenant, String label, String idempotencyKey,
                      String queue) {

    /** No job-control field: the body of the job's kind as it is. */
    public static final Control NONE = new Control(null, -1, null);

    /** The fields of a job sent to the platform's default queue, without a {@code "queue"}. */
    public Control(Priority priority, long delayMs, String tenant, String label, String idempotencyKey) {
        this(priority, delayMs, tenant, label, idempotencyKey, null);
    }

    /** A priority, a delay and a tenant, without a label or an idempotency key. */
    public Control(Priority priority, long delayMs, String tenant) {
        this(priority, delayMs, tenant, null, null);
    }

    /** A priority and a delay, without a tenant. */
    public Control(Priority priority, long delayMs) {
        this(priority, delayMs, null);
    }

    /** Only a tenant. */
    public static Control tenant(String tenant) {
        return new Control(null, -1, tenant);
    }

    /** Only a queue. */
    public static Control queue(String queue) {
        return new Control(null, -1, null, null, null, queue);
    }

    /** Only a priority. */
    public static Control of(Priority priority) {
        return new Control(priority, -1);
    }

    /** Only a delay. */
    public static Control delayed(long delayMs) {
        return new Control(null, delayMs);
    }

    /** Whether a delay was sent. */
    public boolean hasDelay() {
        return delayMs >= 0;
    }

    /** The {@code POST /api/jobs} body of a job of {@code kind} with these fields added to its own. */
    public String body(JobKind kind) {
        if (priority == null && !hasDelay() && tenant == null && label == null && queue == null) {
            return kind.body();
        }
        StringBuilder body = new StringBuilder(kind.body());
        // every kind's body is one JSON object: the fields go before its closing brace
        body.setLength(body.length() - 1);
        if (priority != null) {
            body.append(",\"priority\":\"").append(priority.name()).append('"');
        }
        if (hasDelay()) {
            body.append(",\"delayMs\":").append(delayMs);
        }
        if (tenant != null) {
            // the platform's tenant rule ([a-z0-9][a-z0-9-]*) leaves nothing to escape
            body.append(",\"tenant\":\"").append(tenant).append('"');
        }
        if (label != null) {
            // the bench's own labels: letters, digits and hyphens, nothing to escape
            int colon = label.indexOf(':');
            body.append(",\"labels\":{\"").append(label, 0, colon).append("\":\"").append(label.substring(colon + 1))
                    .append("\"}");
        }
        if (queue != null) {
            // the platform's queue rule ([a-z0-9][a-z0-9-]{0,62}) leaves nothing to escape
            body.append(",\"queue\":\"").append(queue).append('"');
        }
        return body.append('}').toString();
    }

    /**
     * The priority of job number {@code index} in a backlog of 60% HIGH, 30% NORMAL and 10% LOW, interleaved so that
     * every stretch of ten jobs holds six, three and one: the levels compete for the same claims throughout the run.
     */
    public static Priority mixed(int index) {
        int slot = Math.floorMod(index, 10);
        // 0 H, 1 N, 2 H, 3 N, 4 H, 5 L, 6 H, 7 N, 8 H, 9 H
        return switch (slot) {
            case 1, 3, 7 -> Priority.NORMAL;
            case 5 -> Priority.LOW;
            default -> Priority.HIGH;
        };
    }

    /**
     * The delay of job number {@code index}, in {@code [minMs, maxMs]}: spread evenly over that range along the run by
     * the golden-ratio sequence (each delay falls into the largest gap the earlier ones left), so due times cover the
     * window from the first jobs on, the same in every run.
     */
    public static long spreadDelay(int index, long minMs, long maxMs) {
        if (maxMs < minMs) {
            throw new IllegalArgumentException("delay range " + minMs + ".." + maxMs + " ms is empty");
        }
        double fraction = (index * 0.6180339887498949) % 1.0;
        return minMs + Math.round(fraction * (maxMs - minMs));
    }
}
