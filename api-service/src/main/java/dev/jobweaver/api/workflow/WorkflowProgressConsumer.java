package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.workflow.WorkflowGraph;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Follows {@code workflow-progress} ({@link WorkflowProgress}): each run takes the state of its newest event, and each
 * ready node becomes its job, once.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll's events are applied in one transaction and the poll is acknowledged after its commit, so its offsets are
 *       committed only then; a crash before consumes them again, which changes nothing more (older versions are
 *       ignored, node jobs are made idempotently by id).</li>
 *   <li>The quarantine rule of every consumer: a record that does not parse, breaks a rule ({@link #problem}) or is not
 *       keyed by its runId is set aside in {@code jobweaver-quarantine} with its original bytes before its poll is
 *       acknowledged; an event the database refuses for good, or that names a node its run's version does not have,
 *       is split out ({@link BatchIntake}) and set aside, and the events beside it are applied. A transient failure
 *       (database or Kafka unreachable) is retried with back-off until it succeeds, never skipped.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class WorkflowProgressConsumer {

    private final BatchIntake<WorkflowProgressEvent> intake;

    public WorkflowProgressConsumer(WorkflowProgress progress, Quarantine quarantine, ObjectMapper mapper) {
        this.intake = new BatchIntake<>(Channels.WORKFLOW_PROGRESS_IN, quarantine, BatchIntake.events(mapper,
                WorkflowProgressEvent.class, WorkflowProgressConsumer::problem,
                // keyed by another run, it could overtake that run's events
                (key, event) -> event.runId().toString().equals(key) ? null
                        : "the record's key '" + key + "' is not its runId " + event.runId()),
                events -> progress.apply(events).replaceWithVoid());
        quarantine.register(Topics.WORKFLOW_PROGRESS);
    }

    @Incoming(Channels.WORKFLOW_PROGRESS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }

    /** The rule {@code event} breaks, or null: what the API needs to apply it and make its ready nodes' jobs. */
    static String problem(WorkflowProgressEvent event) {
        if (event.runId() == null) {
            return "runId is required";
        }
        if (event.workflowId() == null) {
            return "workflowId is required";
        }
        if (event.version() < 1) {
            return "version must be at least 1, got " + event.version();
        }
        if (event.status() == null) {
            return "status is required";
        }
        if (event.nodes() == null || event.nodes().isEmpty() || event.nodes().size() > WorkflowGraph.MAX_NODES) {
            return "nodes must list the run's 1 to " + WorkflowGraph.MAX_NODES + " nodes";
        }
        for (WorkflowProgressEvent.Node node : event.nodes()) {
            if (node == null || node.id() == null || node.status() == null) {
                return "every node needs its id and status";
            }
        }
        if (event.ready() != null) {
            for (WorkflowProgressEvent.ReadyNode ready : event.ready()) {
                if (ready == null || ready.nodeId() == null || ready.jobId() == null) {
                    return "every ready node needs its nodeId and jobId";
                }
                if (!ready.jobId().equals(JobIds.forNode(event.runId(), ready.nodeId()))) {
                    return "ready node '" + ready.nodeId() + "' has jobId " + ready.jobId() + ", not JobIds.forNode"
                            + " of its run and node";
                }
            }
        }
        return null;
    }
}
