package dev.jobweaver.api.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Publishes JobStatusChangedEvents to job-status, as the scheduler would. */
public final class StatusEvents {

    private StatusEvents() {
    }

    /** Sends a status event for {@code jobId} at {@code version}. */
    public static void send(ObjectMapper mapper, String jobId, JobStatus status, long version, int attempts,
                            String lastError) {
        KafkaProbe.send(Topics.JOB_STATUS, jobId, json(mapper, event(jobId, status, version, attempts, lastError)));
    }

    /**
     * Sends all {@code events} at once (one producer, in order), so that they tend to arrive in one poll; where each
     * landed, in the order of {@code events}.
     */
    public static List<RecordMetadata> sendAll(ObjectMapper mapper, List<JobStatusChangedEvent> events) {
        return KafkaProbe.sendAll(events.stream().map(event -> new ProducerRecord<>(Topics.JOB_STATUS,
                event.jobId().toString(), json(mapper, event))).toList());
    }

    /** A status event for {@code jobId} at {@code version}, as the scheduler would write it. */
    public static JobStatusChangedEvent event(String jobId, JobStatus status, long version, int attempts,
                                              String lastError) {
        Instant now = Instant.now();
        return new JobStatusChangedEvent(UUID.fromString(jobId), status, version, attempts,
                Math.max(0, attempts - 1), 2, status == JobStatus.PENDING ? now.plusSeconds(5) : null, lastError,
                "0af7651916cd43dd8448eb211c80319c", now, attempts > 0 ? now : null,
                status.isTerminal() ? now : null);
    }

    /** {@code event} as the scheduler writes it on the topic. */
    public static byte[] json(ObjectMapper mapper, JobStatusChangedEvent event) {
        try {
            return mapper.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
