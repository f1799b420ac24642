package dev.jobweaver.common.job;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules of a job's {@link JobControl}, shared by the API (400 naming the field) and the consumers of events that
 * carry it (quarantine), so that a job breaking them never reaches the scheduler's tables or a worker.
 */
public final class JobControlRules {

    /** The latest a job may be delayed: 365 days. */
    public static final long MAX_DELAY_MS = 365L * 24 * 3600 * 1000;
    /** The longest {@code timeoutMs}: 24 h. */
    public static final long MAX_TIMEOUT_MS = 24L * 3600 * 1000;
    /** The longest retry delay: the longest delay. */
    public static final long MAX_RETRY_DELAY_MS = MAX_DELAY_MS;
    /** The most entries of {@code retryDelaysMs}. */
    public static final int MAX_RETRY_DELAYS = 10;
    /** The most labels. */
    public static final int MAX_LABELS = 16;
    /** The longest label key. */
    public static final int MAX_LABEL_KEY = 63;
    /** The longest label value. */
    public static final int MAX_LABEL_VALUE = 255;
    /** What a tenant looks like. */
    public static final Pattern TENANT = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    /** What a queue's name looks like: as a tenant's, so that it fits a Kafka topic's name and a DNS label. */
    public static final Pattern QUEUE = TENANT;
    /** What a label key looks like: a letter or digit first, then letters, digits, '.', '_', '/' or '-'. */
    public static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/-]{0,62}");

    private JobControlRules() {
    }

    /**
     * Adds to {@code out} what {@code control} breaks. {@code acceptedAt} bounds {@code runAt}: no later than
     * {@link #MAX_DELAY_MS} after it (with a minute's grace for clocks, since a consumer checks after the API).
     */
    public static void check(JobControl control, Instant acceptedAt, List<String> out) {
        if (control == null) {
            return;
        }
        if (control.runAt() != null && acceptedAt != null
                && control.runAt().isAfter(acceptedAt.plusMillis(MAX_DELAY_MS + 60_000))) {
            out.add("runAt must be at most 365 days after acceptance, got " + control.runAt());
        }
        if (control.timeoutMs() != null && (control.timeoutMs() < 1 || control.timeoutMs() > MAX_TIMEOUT_MS)) {
            out.add("timeoutMs must be between 1 and " + MAX_TIMEOUT_MS + ", got " + control.timeoutMs());
        }
        List<Long> delays = control.retryDelaysMs();
        if (delays != null) {
            if (delays.isEmpty() || delays.size() > MAX_RETRY_DELAYS) {
                out.add("retryDelaysMs must hold 1 to " + MAX_RETRY_DELAYS + " entries, got " + delays.size());
            }
            for (int i = 0; i < delays.size(); i++) {
                Long delay = delays.get(i);
                if (delay == null || delay < 0 || delay > MAX_RETRY_DELAY_MS) {
                    out.add("retryDelaysMs[" + i + "] must be between 0 and " + MAX_RETRY_DELAY_MS + ", got " + delay);
                    break;
                }
            }
        }
        if (control.tenant() != null && !TENANT.matcher(control.tenant()).matches()) {
            out.add("tenant must match [a-z0-9][a-z0-9-]{0,62}, got '" + cut(control.tenant()) + "'");
        }
        if (control.queue() != null && !QUEUE.matcher(control.queue()).matches()) {
            out.add("queue must match [a-z0-9][a-z0-9-]{0,62}, got '" + cut(control.queue()) + "'");
        }
        Map<String, String> labels = control.labels();
        if (labels != null) {
            if (labels.size() > MAX_LABELS) {
                out.add("labels must hold at most " + MAX_LABELS + " pairs, got " + labels.size());
            }
            for (Map.Entry<String, String> label : labels.entrySet()) {
                if (!LABEL_KEY.matcher(label.getKey()).matches()) {
                    out.add("labels has an invalid key '" + cut(label.getKey())
                            + "': 1 to 63 letters, digits, '.', '_', '/' or '-', starting with a letter or digit");
                    break;
                }
                String value = label.getValue();
                if (value == null || value.length() > MAX_LABEL_VALUE || StepRules.hasNul(value)) {
                    out.add("labels." + label.getKey() + " must be a string of at most " + MAX_LABEL_VALUE
                            + " characters");
                    break;
                }
            }
        }
    }

    private static String cut(String value) {
        return value.length() > 40 ? value.substring(0, 40) + "..." : value;
    }
}
