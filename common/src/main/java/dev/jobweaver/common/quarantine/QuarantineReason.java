package dev.jobweaver.common.quarantine;

import java.util.Locale;

/**
 * Why a consumed record was set aside in {@code jobweaver-quarantine}: the {@code reason} label of
 * {@code jobweaver_quarantined_total} and the {@code jobweaver.quarantine.reason} header. Few values on purpose, so the
 * metric's label stays bounded; the record's {@code jobweaver.quarantine.detail} header says exactly what was wrong.
 */
public enum QuarantineReason {
    /** The value is not the event the topic carries: empty, not JSON, wrong types, an unknown enum value. */
    UNREADABLE,
    /** The value parsed, but a field breaks a rule: missing, out of range, too long for its column. */
    INVALID,
    /** The database refused the record's data for good: SQL state class 22 (data) or 23 (integrity constraint). */
    REJECTED_BY_DATABASE,
    /** Processing failed with an error that retrying the same record cannot cure (a data-caused runtime error). */
    UNPROCESSABLE;

    /** The metric label: lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
