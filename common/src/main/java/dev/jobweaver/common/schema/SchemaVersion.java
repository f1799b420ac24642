package dev.jobweaver.common.schema;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a database's Flyway history says about its schema, against the version a build needs.
 *
 * <p>Pure: {@link SchemaGuard} reads the history table and asks this class for a {@link Verdict}, so the rules can be
 * tested without a database. Versions compare part by part as numbers ({@code 10} is after {@code 9}, {@code 2.1}
 * after {@code 2}), as Flyway orders them.
 *
 * @param database  the database's name, for messages
 * @param applied   the newest successfully applied version; empty when none is (no history table, or no row)
 * @param failed    a failed migration is recorded: Flyway refuses to migrate further until it is repaired
 */
public record SchemaVersion(String database, Optional<String> applied, Optional<String> failed) {

    /** The fix every refusal names. */
    static final String HOW_TO_MIGRATE = "start this service once with QUARKUS_DATASOURCE_JDBC_URL set; Flyway migrates"
            + " as it starts, and with QUARKUS_INIT_AND_EXIT=true it exits right after (./jobweaver up does this)";

    /** How the schema compares with what the build needs. */
    public enum Status {
        /** At the build's version: start. */
        CURRENT,
        /** Newer than the build (a rolled-back deployment): start, with a warning; migrations only ever add. */
        AHEAD,
        /** Older than the build, empty, or with a failed migration: do not start. */
        NOT_MIGRATED
    }

    /** A status and the sentence that explains it to an operator. */
    public record Verdict(Status status, String message) {
    }

    /** One row of {@code flyway_schema_history} that has a version (repeatable migrations have none). */
    public record HistoryRow(String version, boolean success) {
    }

    /** The schema that {@code rows}, the versioned rows of the history table, describe. */
    public static SchemaVersion of(String database, List<HistoryRow> rows) {
        Optional<String> applied = rows.stream().filter(HistoryRow::success).map(HistoryRow::version)
                .max(SchemaVersion::compare);
        Optional<String> failed = rows.stream().filter(r -> !r.success()).map(HistoryRow::version)
                .max(SchemaVersion::compare);
        return new SchemaVersion(database, applied, failed);
    }

    /** A database whose history table does not exist: never migrated. */
    public static SchemaVersion empty(String database) {
        return new SchemaVersion(database, Optional.empty(), Optional.empty());
    }

    /** How this schema compares with {@code required}, the newest migration of the build. */
    public Verdict against(String required) {
        if (failed.isPresent()) {
            return new Verdict(Status.NOT_MIGRATED, "database " + database + " records a failed migration to version "
                    + failed.get() + ": repair it (flyway repair), then migrate: " + HOW_TO_MIGRATE);
        }
        if (applied.isEmpty()) {
            return new Verdict(Status.NOT_MIGRATED, "database " + database + " has no schema yet; this build needs"
                    + " version " + required + ". Migrate it: " + HOW_TO_MIGRATE);
        }
        int order = compare(applied.get(), required);
        if (order < 0) {
            return new Verdict(Status.NOT_MIGRATED, "database " + database + " is at schema version " + applied.get()
                    + "; this build needs " + required + ". Migrate it: " + HOW_TO_MIGRATE);
        }
        if (order > 0) {
            return new Verdict(Status.AHEAD, "database " + database + " is at schema version " + applied.get()
                    + ", newer than this build's " + required + " (a newer build migrated it); starting anyway");
        }
        return new Verdict(Status.CURRENT, "database " + database + " is at schema version " + required);
    }

    /** Flyway's order of versions: dot-separated parts, each compared as a number; a missing part counts as 0. */
    static int compare(String a, String b) {
        long[] x = parts(a);
        long[] y = parts(b);
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Long.compare(i < x.length ? x[i] : 0, i < y.length ? y[i] : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static long[] parts(String version) {
        try {
            return Arrays.stream(version.trim().split("[._]")).mapToLong(Long::parseLong).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a Flyway version: '" + version + "'", e);
        }
    }
}
