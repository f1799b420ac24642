package dev.jobweaver.scheduler.outcome;

import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.scheduler.intake.Consumed;
import dev.jobweaver.scheduler.intake.IncomingRecords;
import dev.jobweaver.scheduler.intake.QuarantiningRound;
import dev.jobweaver.scheduler.job.Outcome;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.outcome.OutcomeService.Received;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code job-completed} and {@code job-failed}, one poll at a time (batch mode). A batch's outcomes are
 * applied in one transaction ({@link OutcomeService#applyAll}) and its records acknowledged only after the commit and
 * Kafka's acknowledgement of the events it published.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record that is no usable outcome ({@link EventRules}, keyed by its jobId) is quarantined before any of it
 *       reaches SQL; a usable one the database refuses for good is found by splitting the batch
 *       ({@link QuarantiningRound}) and quarantined alone, while the outcomes beside it are applied, in order. The
 *       batch is acknowledged only after every record of it was applied or quarantined.</li>
 *   <li>Database or Kafka failures are retried with backoff: the partition waits, nothing is skipped.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Each channel calls its method on its event loop, one batch at a time; the round runs as
 * {@link QuarantiningRound} says.
 */
@ApplicationScoped
public class OutcomeConsumer {

    private final IncomingRecords records;
    private final Quarantine quarantine;
    private final QuarantiningRound<Received> completedRound;
    private final QuarantiningRound<Received> failedRound;

    public OutcomeConsumer(IncomingRecords records, OutcomeService outcomes, Quarantine quarantine) {
        this.records = records;
        this.quarantine = quarantine;
        this.completedRound = new QuarantiningRound<>(Channels.JOB_COMPLETED_IN,
                received -> outcomes.applyAll(received).replaceWithVoid(), quarantine);
        this.failedRound = new QuarantiningRound<>(Channels.JOB_FAILED_IN,
                received -> outcomes.applyAll(received).replaceWithVoid(), quarantine);
    }

    /** The quarantine counters of both topics exist (at zero) from the start, not from the first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.JOB_COMPLETED, Topics.JOB_FAILED);
    }

    @Incoming(Channels.JOB_COMPLETED_IN)
    public Uni<Void> completed(KafkaRecordBatch<String, byte[]> batch) {
        return apply(batch, JobCompletedEvent.class, EventRules::problem, JobCompletedEvent::jobId, Outcome::of,
                Topics.JOB_COMPLETED, completedRound);
    }

    @Incoming(Channels.JOB_FAILED_IN)
    public Uni<Void> failed(KafkaRecordBatch<String, byte[]> batch) {
        return apply(batch, JobFailedEvent.class, EventRules::problem, JobFailedEvent::jobId, Outcome::of,
                Topics.JOB_FAILED, failedRound);
    }

    private <T> Uni<Void> apply(KafkaRecordBatch<String, byte[]> batch, Class<T> type, Function<T, String> rules,
                                Function<T, UUID> jobId, Function<T, Outcome> toOutcome, String topic,
                                QuarantiningRound<Received> round) {
        List<Consumed<Received>> consumed = new ArrayList<>(batch.getRecords().size());
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            consumed.add(records.read(record, type, rules, jobId)
                    .map(event -> new Received(toOutcome.apply(event), topic, JobTracing.incoming(record))));
        }
        return round.apply(consumed).chain(() -> IncomingRecords.ack(batch));
    }
}
