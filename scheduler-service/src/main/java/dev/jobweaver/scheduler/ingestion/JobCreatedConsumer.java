package dev.jobweaver.scheduler.ingestion;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.scheduler.ingestion.IngestionService.Accepted;
import dev.jobweaver.scheduler.observability.JobTracing;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code job-created} in batch mode: the polls that arrive while an ingestion round runs are stored together
 * by the next round, in one transaction ({@link BatchIntake#inRounds}), and their offsets acknowledged only after the
 * round.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record that is no usable {@link JobCreatedEvent} ({@link EventRules}, keyed by its jobId) is quarantined
 *       before any of it reaches SQL; a usable one the database refuses for good (SQL state 22 or 23) is found by
 *       splitting its round ({@link BatchIntake}) and quarantined alone, while the jobs beside it are stored.
 *       A poll is acknowledged only after its round stored or quarantined every record of it.</li>
 *   <li>A transient failure (the database or Kafka unreachable) is retried with backoff: the partition waits,
 *       nothing is skipped.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * {@link #consume} runs on the channel's event loop and only parses; rounds run as {@link BatchIntake} says.
 */
@ApplicationScoped
public class JobCreatedConsumer {

    /** Jobs that may wait for the next ingestion round. */
    static final int MAX_WAITING = 1000;
    /**
     * Encoded bytes of the jobs that may wait for the next ingestion round. Records are counted above, but a job may
     * carry 64 KiB: after a restart into a backlog of 60 KB jobs, 1,000 of them waiting (and their round, and the
     * connector's queue) took the 58 MB heap to an OutOfMemoryError at every restart. No-op jobs, about 600 bytes, reach
     * the record bound first.
     */
    static final long MAX_WAITING_BYTES = 2L * 1024 * 1024;

    private final Quarantine quarantine;
    private final BatchIntake<Accepted> intake;

    public JobCreatedConsumer(IngestionService ingestion, Quarantine quarantine, ObjectMapper mapper) {
        this.quarantine = quarantine;
        this.intake = new BatchIntake<>(Channels.JOB_CREATED_IN, quarantine, BatchIntake.events(mapper,
                JobCreatedEvent.class, EventRules::problem, (key, event) -> EventRules.keyProblem(key, event.jobId()),
                (record, event) -> new Accepted(event, JobTracing.incoming(record))),
                accepted -> ingestion.ingest(accepted).replaceWithVoid()).inRounds(MAX_WAITING, MAX_WAITING_BYTES);
    }

    /** The quarantine counters of job-created exist (at zero) from the start, not from the first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.JOB_CREATED);
    }

    @Incoming(Channels.JOB_CREATED_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }

    /**
     * One ingestion round: its refused records quarantined, its jobs stored in one transaction, split until the jobs
     * the database refuses stand alone and are quarantined; completes when every record is stored or quarantined.
     */
    Uni<Void> round(List<Consumed<Accepted>> records) {
        return intake.round(records);
    }
}
