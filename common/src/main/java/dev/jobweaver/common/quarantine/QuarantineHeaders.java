package dev.jobweaver.common.quarantine;

/**
 * The headers a record in {@code jobweaver-quarantine} carries besides the original record's own headers. Its key and
 * value are the original record's, byte for byte.
 */
public final class QuarantineHeaders {

    /** The topic the record was consumed from. */
    public static final String TOPIC = "jobweaver.quarantine.topic";
    /** Its partition, in decimal. */
    public static final String PARTITION = "jobweaver.quarantine.partition";
    /** Its offset, in decimal. */
    public static final String OFFSET = "jobweaver.quarantine.offset";
    /** Its Kafka timestamp, ISO-8601, when it had one. */
    public static final String TIMESTAMP = "jobweaver.quarantine.timestamp";
    /** The {@link QuarantineReason}'s name. */
    public static final String REASON = "jobweaver.quarantine.reason";
    /** What exactly was wrong, one line (at most {@link #MAX_DETAIL} characters). */
    public static final String DETAIL = "jobweaver.quarantine.detail";
    /** The service that set it aside ({@code quarkus.application.name}). */
    public static final String SERVICE = "jobweaver.quarantine.service";
    /** When it was set aside, ISO-8601. */
    public static final String QUARANTINED_AT = "jobweaver.quarantine.at";

    /** The longest detail kept; a longer one is cut and ends with an ellipsis. */
    public static final int MAX_DETAIL = 1000;

    private QuarantineHeaders() {
    }
}
