package dev.jobweaver.scheduler.outcome;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.scheduler.job.Outcome;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.outcome.OutcomeService.Received;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
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
 *       ({@link BatchIntake}) and quarantined alone, while the outcomes beside it are applied, in order. The
 *       batch is acknowledged only after every record of it was applied or quarantined.</li>
 *   <li>Database or Kafka failures are retried with backoff: the partition waits, nothing is skipped.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Each channel calls its method on its event loop, one batch at a time; the round runs as
 * {@link BatchIntake} says.
 */
@ApplicationScoped
public class OutcomeConsumer {

    private final Quarantine quarantine;
    private final BatchIntake<Received> completedIntake;
    private final BatchIntake<Received> failedIntake;

    public OutcomeConsumer(OutcomeService outcomes, Quarantine quarantine, ObjectMapper mapper) {
        this.quarantine = quarantine;
        this.completedIntake = intake(Channels.JOB_COMPLETED_IN, BatchIntake.events(mapper,
                JobCompletedEvent.class, EventRules::problem, (key, e) -> EventRules.keyProblem(key, e.jobId()),
                (record, e) -> new Received(Outcome.of(e), Topics.JOB_COMPLETED, JobTracing.incoming(record))),
                outcomes);
        this.failedIntake = intake(Channels.JOB_FAILED_IN, BatchIntake.events(mapper,
                JobFailedEvent.class, EventRules::problem, (key, e) -> EventRules.keyProblem(key, e.jobId()),
                (record, e) -> new Received(Outcome.of(e), Topics.JOB_FAILED, JobTracing.incoming(record))),
                outcomes);
    }

    /** The quarantine counters of both topics exist (at zero) from the start, not from the first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.JOB_COMPLETED, Topics.JOB_FAILED);
    }

    @Incoming(Channels.JOB_COMPLETED_IN)
    public Uni<Void> completed(KafkaRecordBatch<String, byte[]> batch) {
        return completedIntake.consume(batch);
    }

    @Incoming(Channels.JOB_FAILED_IN)
    public Uni<Void> failed(KafkaRecordBatch<String, byte[]> batch) {
        return failedIntake.consume(batch);
    }

    /** Both topics' outcomes are applied alike; only how a record is read differs. */
    private BatchIntake<Received> intake(String channel, BatchIntake.Reader<Received> reader, OutcomeService outcomes) {
        return new BatchIntake<>(channel, quarantine, reader, received -> outcomes.applyAll(received).replaceWithVoid());
    }
}
