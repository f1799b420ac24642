package dev.jobweaver.scheduler.workflow;

import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.scheduler.intake.Consumed;
import dev.jobweaver.scheduler.intake.IncomingRecords;
import dev.jobweaver.scheduler.intake.QuarantiningRound;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code workflow-runs} (the API's starts and cancels of workflow runs, keyed by runId), one poll at a time:
 * a poll is applied in one transaction ({@link WorkflowOrchestrator#applyAll}) and acknowledged after the commit.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record that is no usable {@link WorkflowRunEvent} (unreadable; a START without its fields or whose graph
 *       breaks {@code WorkflowGraph}'s rules; keyed by something other than its runId) is quarantined before any of
 *       it reaches SQL; one the database refuses for good is found by splitting the poll ({@link QuarantiningRound})
 *       and quarantined alone, while the records beside it are applied, in order.</li>
 *   <li>Database and Kafka failures are retried with backoff: the partition waits, nothing is skipped.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The channel calls {@link #consume} on its event loop, one poll at a time; the round runs as
 * {@link QuarantiningRound} says.
 */
@ApplicationScoped
public class WorkflowRunConsumer {

    private final IncomingRecords records;
    private final Quarantine quarantine;
    private final QuarantiningRound<WorkflowRunEvent> round;

    public WorkflowRunConsumer(IncomingRecords records, WorkflowOrchestrator orchestrator, Quarantine quarantine) {
        this.records = records;
        this.quarantine = quarantine;
        this.round = new QuarantiningRound<>(Channels.WORKFLOW_RUNS_IN, orchestrator::applyAll, quarantine);
    }

    /** The quarantine counters of workflow-runs exist (at zero) from the start, not from the first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.WORKFLOW_RUNS);
    }

    @Incoming(Channels.WORKFLOW_RUNS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Consumed<WorkflowRunEvent>> consumed = new ArrayList<>(batch.getRecords().size());
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            consumed.add(records.read(record, WorkflowRunEvent.class, WorkflowRunRules::problem,
                    (key, event) -> WorkflowRunRules.keyProblem(key, event.runId())));
        }
        return round.apply(consumed).chain(() -> IncomingRecords.ack(batch));
    }
}
