package dev.jobweaver.api.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import java.time.Instant;
import java.util.UUID;

/** Publishes JobStatusChangedEvents to job-status, as the scheduler would. */
public final class StatusEvents {

    private StatusEvents() {
    }

    /** Sends a status event for {@code jobId} at {@code version}. */
    public static void send(ObjectMapper mapper, String jobId, JobStatus status, long version, int attempts,
                            String lastError) {
        Instant now = Instant.now();
        JobStatusChangedEvent event = new JobStatusChangedEvent(UUID.fromString(jobId), status, version, attempts,
                Math.max(0, attempts - 1), 2, status == JobStatus.PENDING ? now.plusSeconds(5) : null, lastError,
                "0af7651916cd43dd8448eb211c80319c", now, attempts > 0 ? now : null,
                status.isTerminal() ? now : null);
        try {
            KafkaProbe.send(Topics.JOB_STATUS, jobId, mapper.writeValueAsBytes(event));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
