package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.messaging.Topics;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Dead letters for the integration tests: published as the scheduler would, or stored directly, and read back. */
public final class DeadLetters {

    private DeadLetters() {
    }

    /** A tenant no other test uses, so that a filter by it sees only this test's dead letters. */
    public static String newTenant() {
        return "dl-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** {@code event}'s record on job-dead-letter, keyed by its jobId, as the scheduler writes it. */
    public static ProducerRecord<String, byte[]> record(ObjectMapper mapper, DeadLetterEvent event) {
        try {
            return new ProducerRecord<>(Topics.JOB_DEAD_LETTER, event.jobId().toString(),
                    mapper.writeValueAsBytes(event));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Submits a job and stores an OPEN dead letter of it directly (no Kafka), of {@code tenant} and {@code jobType},
     * failed at {@code failedAt}, with the job's trace id; returns the job's id.
     */
    public static String storeOpen(String tenant, String jobType, Instant failedAt) throws SQLException {
        String jobId = Jobs.submitOne();
        store(jobId, tenant, jobType, failedAt, Jobs.get(jobId).getString("traceId"));
        return jobId;
    }

    /** {@link #storeOpen(String, String, Instant)} of a SIMULATION job, of a tenant no other test uses. */
    public static String storeOpen(Instant failedAt) throws SQLException {
        return storeOpen(newTenant(), "SIMULATION", failedAt);
    }

    /**
     * Stores an OPEN dead letter of {@code tenant} per job type, the first failed at {@code first} and each next one
     * {@code gap} later; returns the jobs' ids in that order.
     */
    public static List<String> storeOpen(String tenant, Instant first, Duration gap, String... jobTypes)
            throws SQLException {
        List<String> jobIds = new ArrayList<>();
        for (String jobType : jobTypes) {
            jobIds.add(storeOpen(tenant, jobType, first.plus(gap.multipliedBy(jobIds.size()))));
        }
        return jobIds;
    }

    /** Stores an OPEN dead letter of {@code jobId} directly. */
    public static void store(String jobId, String tenant, String jobType, Instant failedAt, String traceId)
            throws SQLException {
        try (Connection db = Database.connect(); PreparedStatement insert = db.prepareStatement("""
                INSERT INTO dead_letters (job_id, tenant, job_type, labels, state, reason, attempts, last_error,
                                          failed_at, trace_id, dead_count, created_at, updated_at)
                VALUES (?, ?, ?, '{"team":"billing"}'::jsonb, 'OPEN', 'boom', 3, 'boom', ?, ?, 1, now(), now())
                """)) {
            insert.setObject(1, UUID.fromString(jobId));
            insert.setString(2, tenant);
            insert.setString(3, jobType);
            insert.setTimestamp(4, Timestamp.from(failedAt.truncatedTo(ChronoUnit.MICROS)));
            insert.setString(5, traceId);
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
    }

    /** Makes {@code jobId} a workflow node's job, in the read model and in its dead letter (if it has one yet). */
    public static UUID makeNode(String jobId) throws SQLException {
        UUID runId = UUID.randomUUID();
        try (Connection db = Database.connect()) {
            for (String sql : new String[] {"UPDATE jobs SET workflow_run_id = ? WHERE id = ?",
                    "UPDATE dead_letters SET workflow_run_id = ? WHERE job_id = ?"}) {
                try (PreparedStatement update = db.prepareStatement(sql)) {
                    update.setObject(1, runId);
                    update.setObject(2, UUID.fromString(jobId));
                    update.executeUpdate();
                }
            }
        }
        return runId;
    }

    /** The dead letter's row as column name to value (text), or null when there is none. */
    public static Map<String, String> row(String jobId) throws SQLException {
        try (Connection db = Database.connect();
             PreparedStatement query = db.prepareStatement("SELECT * FROM dead_letters WHERE job_id = ?")) {
            query.setObject(1, UUID.fromString(jobId));
            try (ResultSet rows = query.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
                    row.put(rows.getMetaData().getColumnName(i), rows.getString(i));
                }
                return row;
            }
        }
    }

    /** POST /api/dead-letters/{jobId}/requeue with {@code body} (none when null). */
    public static Response requeue(String jobId, String body) {
        return body == null ? given().post("/api/dead-letters/" + jobId + "/requeue")
                : given().contentType(ContentType.JSON).body(body).post("/api/dead-letters/" + jobId + "/requeue");
    }

    /** POST /api/dead-letters/{jobId}/discard with {@code body}. */
    public static Response discard(String jobId, String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/dead-letters/" + jobId + "/discard");
    }

    /** POST /api/dead-letters/requeue with {@code body} (none when null). */
    public static Response requeueAll(String body) {
        return body == null ? given().post("/api/dead-letters/requeue")
                : given().contentType(ContentType.JSON).body(body).post("/api/dead-letters/requeue");
    }
}
