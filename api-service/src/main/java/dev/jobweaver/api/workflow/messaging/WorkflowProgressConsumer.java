package dev.jobweaver.api.workflow.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.workflow.service.WorkflowProgress;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.common.reactive.VertxContexts;
import dev.jobweaver.common.workflow.WorkflowGraph;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

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
 *       is split out ({@link Bisection}) and set aside, and the events beside it are applied. A transient failure
 *       (database or Kafka unreachable) is retried with back-off until it succeeds, never skipped.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
public class WorkflowProgressConsumer {

    private static final Logger LOG = Logger.getLogger(WorkflowProgressConsumer.class);
    /** As the other consumers: a database outage is waited out, since a channel that gave up stays down. */
    private static final UnaryOperator<Uni<Void>> RETRY_TRANSIENT = Bisection.retryForever(Duration.ofMillis(200),
            Duration.ofSeconds(10));

    /** A usable event and the record it came from. */
    record ProgressRecord(WorkflowProgressEvent event, RecordOrigin origin) {
    }

    /** A record that is no usable event, and why. */
    private record Unusable(RecordOrigin origin, QuarantineReason reason, String detail) {
    }

    private final WorkflowProgress progress;
    private final Quarantine quarantine;
    private final ObjectMapper mapper;
    private final Bisection<ProgressRecord> bisection;

    public WorkflowProgressConsumer(WorkflowProgress progress, Quarantine quarantine, ObjectMapper mapper) {
        this.progress = progress;
        this.quarantine = quarantine;
        this.mapper = mapper;
        this.bisection = new Bisection<>(this::round, RETRY_TRANSIENT,
                (item, failure) -> quarantine.send(item.origin(), failure));
    }

    /** The quarantine counters of the consumed topic exist, at zero, before its first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.WORKFLOW_PROGRESS);
    }

    @Incoming(Channels.WORKFLOW_PROGRESS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Unusable> unusable = new ArrayList<>();
        List<ProgressRecord> events = read(batch.getRecords(), unusable);
        Uni<Void> done = setAside(unusable)
                .chain(() -> bisection.apply(events))
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().call(failure -> {
                    LOG.errorf(failure, "could not apply %d workflow progress event(s) or quarantine %d record(s); the"
                            + " channel stops here and the records are consumed again from the last committed offset",
                            events.size(), unusable.size());
                    return Uni.createFrom().completionStage(() -> batch.nack(failure))
                            .onFailure().recoverWithNull();
                });
        return VertxContexts.backToCaller(done);
    }

    /** One all-or-nothing transaction of {@code events}; the unit {@link #bisection} splits. */
    private Uni<Void> round(List<ProgressRecord> events) {
        return progress.apply(events.stream().map(ProgressRecord::event).toList()).replaceWithVoid();
    }

    private Uni<Void> setAside(List<Unusable> unusable) {
        if (unusable.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(unusable)
                .onItem().transformToUniAndConcatenate(bad -> RETRY_TRANSIENT.apply(Uni.createFrom().deferred(
                        () -> quarantine.send(bad.origin(), bad.reason(), bad.detail()))))
                .collect().last()
                .replaceWithVoid();
    }

    private List<ProgressRecord> read(List<KafkaRecord<String, byte[]>> records, List<Unusable> unusable) {
        List<ProgressRecord> events = new ArrayList<>(records.size());
        for (KafkaRecord<String, byte[]> record : records) {
            byte[] value = record.getPayload();
            RecordOrigin origin = RecordOrigin.of(record, value);
            WorkflowProgressEvent event;
            switch (EventReader.read(mapper, value, WorkflowProgressEvent.class, WorkflowProgressConsumer::problem)) {
                case EventReader.Read.Bad<WorkflowProgressEvent> bad -> {
                    unusable.add(new Unusable(origin, bad.reason(), bad.detail()));
                    continue;
                }
                case EventReader.Read.Ok<WorkflowProgressEvent> ok -> event = ok.event();
            }
            if (!event.runId().toString().equals(record.getKey())) {
                // keyed by another run, it could overtake that run's events
                unusable.add(new Unusable(origin, QuarantineReason.INVALID, "the record's key '" + record.getKey()
                        + "' is not its runId " + event.runId()));
                continue;
            }
            events.add(new ProgressRecord(event, origin));
        }
        return events;
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
