package dev.jobweaver.api.job.outbox;

import dev.jobweaver.api.testing.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

/**
 * Jobs committed with their outbox rows and never published, written with JDBC as a crashed or cut-off API would have
 * left them: the fixture of the outbox's tests.
 */
final class OutboxRows {

    static final String TRACE_ID = "5bf92f3577b34da6a3ce929d0e0e4736";

    private OutboxRows() {
    }

    /** A PENDING no-op job and its outbox row, stored at {@code createdAt} by no named instance. */
    static void insert(UUID jobId, UUID eventId, Instant createdAt) throws SQLException {
        insert(jobId, eventId, createdAt, null, null);
    }

    /**
     * A PENDING no-op job and its outbox row.
     *
     * @param instance the relay instance that stored the row, or null
     * @param control an UPDATE of the job's control columns ({@code ?} is its id), in the same transaction; or null
     */
    static void insert(UUID jobId, UUID eventId, Instant createdAt, String instance, String control)
            throws SQLException {
        try (Connection db = Database.connect()) {
            db.setAutoCommit(false);
            try (PreparedStatement job = db.prepareStatement("INSERT INTO jobs (id, type, instruction, trace_id, status,"
                    + " max_retries, created_at, updated_at, next_run_at) VALUES (?, 'SIMULATION', ?::jsonb, ?,"
                    + " 'PENDING', 1, ?, ?, ?)");
                 PreparedStatement outbox = db.prepareStatement("INSERT INTO job_outbox (job_id, event_id, traceparent,"
                         + " created_at, relay_instance) VALUES (?, ?, ?, ?, ?)")) {
                Timestamp at = Timestamp.from(createdAt);
                job.setObject(1, jobId);
                job.setString(2, "{\"steps\":[{\"action\":\"LOG\",\"message\":\"left behind\"}]}");
                job.setString(3, TRACE_ID);
                job.setTimestamp(4, at);
                job.setTimestamp(5, at);
                job.setTimestamp(6, at);
                job.executeUpdate();
                outbox.setObject(1, jobId);
                outbox.setObject(2, eventId);
                outbox.setString(3, "00-" + TRACE_ID + "-00f067aa0ba902b7-01");
                outbox.setTimestamp(4, at);
                outbox.setString(5, instance);
                outbox.executeUpdate();
            }
            if (control != null) {
                try (PreparedStatement update = db.prepareStatement(control)) {
                    update.setObject(1, jobId);
                    update.executeUpdate();
                }
            }
            db.commit();
        }
    }

    /** Whether {@code jobId} still has its outbox row. */
    static boolean has(UUID jobId) throws SQLException {
        return Database.hasRow("SELECT 1 FROM job_outbox WHERE job_id = ?", jobId);
    }

    /** Removes these jobs, and with them their outbox rows. */
    static void deleteJobs(UUID... jobIds) throws SQLException {
        try (Connection db = Database.connect();
             PreparedStatement outbox = db.prepareStatement("DELETE FROM job_outbox WHERE job_id = ANY(?)");
             PreparedStatement jobs = db.prepareStatement("DELETE FROM jobs WHERE id = ANY(?)")) {
            var ids = db.createArrayOf("uuid", jobIds);
            outbox.setArray(1, ids);
            outbox.executeUpdate();
            jobs.setArray(1, ids);
            jobs.executeUpdate();
        }
    }
}
