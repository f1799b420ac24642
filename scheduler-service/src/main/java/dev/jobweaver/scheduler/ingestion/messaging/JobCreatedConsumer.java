package dev.jobweaver.scheduler.ingestion.messaging;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.scheduler.ingestion.service.IngestionService;
import dev.jobweaver.scheduler.messaging.IncomingRecords;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes {@code job-created}. The offset is acknowledged only after the job's row is committed; a database
 * failure is retried with backoff (the record is not lost, the partition waits for the database), a malformed
 * record is skipped.
 */
@ApplicationScoped
public class JobCreatedConsumer {

    private static final Logger LOG = Logger.getLogger(JobCreatedConsumer.class);

    private final IncomingRecords records;
    private final IngestionService ingestion;

    public JobCreatedConsumer(IncomingRecords records, IngestionService ingestion) {
        this.records = records;
        this.ingestion = ingestion;
    }

    @Incoming(Channels.JOB_CREATED_IN)
    public Uni<Void> consume(Message<byte[]> message) {
        var event = records.read(message, JobCreatedEvent.class, JobCreatedConsumer::problem);
        if (event.isEmpty()) {
            return IncomingRecords.ack(message);
        }
        JobCreatedEvent created = event.get();
        return ingestion.ingest(created, JobTracing.incoming(message))
                .onFailure().invoke(e -> JobLog.warn(LOG, created.jobId(), created.traceId(),
                        "could not store job, retrying: %s", e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely()
                .chain(() -> IncomingRecords.ack(message));
    }

    /** What makes a parsed event unusable, or null. */
    static String problem(JobCreatedEvent e) {
        if (e.jobId() == null) {
            return "jobId is missing";
        }
        if (e.jobType() == null) {
            return "jobType is missing";
        }
        if (e.payload() == null || e.payload().steps() == null || e.payload().steps().isEmpty()) {
            return "payload.steps is missing or empty";
        }
        for (Step step : e.payload().steps()) {
            if (step == null) {
                return "payload.steps contains null";
            }
        }
        if (e.maxRetries() < 0) {
            return "maxRetries is negative";
        }
        return null;
    }
}
