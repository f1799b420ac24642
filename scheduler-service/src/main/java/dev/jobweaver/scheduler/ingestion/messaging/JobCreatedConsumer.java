package dev.jobweaver.scheduler.ingestion.messaging;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.scheduler.ingestion.service.IngestionService;
import dev.jobweaver.scheduler.ingestion.service.IngestionService.Accepted;
import dev.jobweaver.scheduler.messaging.IncomingRecords;
import dev.jobweaver.scheduler.messaging.PollRounds;
import dev.jobweaver.scheduler.observability.JobTracing;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code job-created} in batch mode: the polls that arrive while an ingestion round runs are stored together
 * by the next round, in one transaction ({@link PollRounds}), and their offsets acknowledged only after its commit.
 * A database failure is retried with backoff (the records are not lost, the partition waits for the database);
 * malformed records are skipped.
 */
@ApplicationScoped
public class JobCreatedConsumer {

    private static final Logger LOG = Logger.getLogger(JobCreatedConsumer.class);

    /** Jobs that may wait for the next ingestion round. */
    static final int MAX_WAITING = 1000;
    /**
     * Encoded bytes of the jobs that may wait for the next ingestion round. Records are counted above, but a job may
     * carry 64 KiB: after a restart into a backlog of 60 KB jobs, 1,000 of them waiting (and their round, and the
     * connector's queue) took the 58 MB heap to an OutOfMemoryError at every restart. No-op jobs, about 600 bytes, reach
     * the record bound first.
     */
    static final long MAX_WAITING_BYTES = 2L * 1024 * 1024;

    private final IncomingRecords records;
    private final PollRounds<Accepted> rounds;

    public JobCreatedConsumer(IncomingRecords records, IngestionService ingestion) {
        this.records = records;
        this.rounds = new PollRounds<>(Channels.JOB_CREATED_IN, accepted -> ingestion.ingest(accepted)
                .onFailure().invoke(e -> LOG.warnf("could not store %d job(s), retrying: %s", accepted.size(),
                        e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely()
                .replaceWithVoid(), MAX_WAITING, MAX_WAITING_BYTES);
    }

    @Incoming(Channels.JOB_CREATED_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Accepted> accepted = new ArrayList<>();
        long bytes = 0;
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            bytes += record.getPayload() == null ? 0 : record.getPayload().length;
            records.read(record, JobCreatedEvent.class, JobCreatedConsumer::problem)
                    .ifPresent(event -> accepted.add(new Accepted(event, JobTracing.incoming(record))));
        }
        return rounds.offer(accepted, bytes, batch);
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
