package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobStatus;
import io.restassured.response.Response;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Cancels, deletes and the commands they publish, for the integration tests of job control. */
public final class JobCommands {

    private JobCommands() {
    }

    /** POST /api/jobs/{id}/cancel. */
    public static Response cancel(String id) {
        return given().post("/api/jobs/" + id + "/cancel");
    }

    /** DELETE /api/jobs/{id}. */
    public static Response delete(String id) {
        return given().delete("/api/jobs/" + id);
    }

    /** Sets the job's status in the read model directly, as if the scheduler had reported it. */
    public static void setStatus(String jobId, JobStatus status) throws SQLException {
        try (Connection connection = Database.connect(); PreparedStatement update = connection.prepareStatement(
                "UPDATE jobs SET status = ?, status_version = status_version + 1,"
                        + " finished_at = CASE WHEN ? THEN now() END WHERE id = ?")) {
            update.setString(1, status.name());
            update.setBoolean(2, status.isTerminal());
            update.setObject(3, UUID.fromString(jobId));
            assertThat(update.executeUpdate()).as("rows of job %s", jobId).isEqualTo(1);
        }
    }

    /** How many rows of {@code table} have {@code column} = {@code jobId}. */
    public static long rows(String table, String column, String jobId) throws SQLException {
        return Database.firstLong("SELECT count(*) FROM " + table + " WHERE " + column + " = ?",
                UUID.fromString(jobId));
    }

    /**
     * Waits for the command of {@code jobId} on job-commands, reads the topic to its end for a second one (the API
     * publishes a command before it answers, so a second one sent by the request is there by now), and asserts
     * that there is exactly one, well formed: keyed by the jobId, {@code command}, the job's trace id in the event and
     * in its {@code traceparent} header, a UUID {@code eventId} header. Returns it.
     */
    public static JobCommandEvent single(KafkaProbe probe, ObjectMapper mapper, String jobId, JobCommand command,
                                         String traceId) throws IOException {
        probe.pollUntil(seen -> seen.stream().anyMatch(r -> jobId.equals(r.key())), Duration.ofSeconds(20));
        probe.readToEnd();
        List<ConsumerRecord<String, byte[]>> records = probe.withKey(jobId);
        assertThat(records).as("commands of job %s on job-commands", jobId).hasSize(1);
        ConsumerRecord<String, byte[]> record = records.getFirst();
        JobCommandEvent event = mapper.readValue(record.value(), JobCommandEvent.class);
        assertThat(EventRules.problem(event)).as("rule broken by the command").isNull();
        assertThat(event.jobId()).isEqualTo(UUID.fromString(jobId));
        assertThat(event.command()).isEqualTo(command);
        assertThat(event.traceId()).isEqualTo(traceId);
        assertThat(event.requestedAt()).isBetween(Instant.now().minusSeconds(60), Instant.now());
        String eventId = KafkaProbe.header(record, "eventId");
        assertThat(eventId).as("eventId header").isNotNull();
        assertThat(UUID.fromString(eventId)).isNotNull();
        assertThat(KafkaProbe.header(record, "traceparent")).as("traceparent header: the job's trace")
                .matches("00-" + traceId + "-[0-9a-f]{16}-0[01]");
        return event;
    }
}
