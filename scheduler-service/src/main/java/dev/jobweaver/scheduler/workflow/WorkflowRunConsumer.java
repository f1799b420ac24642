package dev.jobweaver.scheduler.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code workflow-runs} (the API's starts and cancels of workflow runs, keyed by runId), one poll at a time:
 * a poll is applied in one transaction ({@link WorkflowOrchestrator#applyAll}) and acknowledged after the commit.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record that is no usable {@link WorkflowRunEvent} (unreadable; a START without its fields or whose graph
 *       breaks {@code WorkflowGraph}'s rules; keyed by something other than its runId) is quarantined before any of
 *       it reaches SQL; one the database refuses for good is found by splitting the poll ({@link BatchIntake})
 *       and quarantined alone, while the records beside it are applied, in order.</li>
 *   <li>Database and Kafka failures are retried with backoff: the partition waits, nothing is skipped.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The channel calls {@link #consume} on its event loop, one poll at a time; the round runs as
 * {@link BatchIntake} says.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class WorkflowRunConsumer {

    private final BatchIntake<WorkflowRunEvent> intake;

    public WorkflowRunConsumer(WorkflowOrchestrator orchestrator, Quarantine quarantine, ObjectMapper mapper) {
        this.intake = new BatchIntake<>(Channels.WORKFLOW_RUNS_IN, quarantine, BatchIntake.events(mapper,
                WorkflowRunEvent.class, WorkflowRunRules::problem,
                (key, event) -> WorkflowRunRules.keyProblem(key, event.runId())),
                orchestrator::applyAll);
        quarantine.register(Topics.WORKFLOW_RUNS);
    }

    @Incoming(Channels.WORKFLOW_RUNS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
