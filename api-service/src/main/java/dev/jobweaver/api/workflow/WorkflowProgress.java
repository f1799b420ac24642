package dev.jobweaver.api.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.api.job.JobApiConfig;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.job.store.SubmissionStore;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.job.JobSubmissionService;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.metrics.Counters;
import dev.jobweaver.common.quarantine.InvalidRecordException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Applies the scheduler's reports of workflow runs ({@code workflow-progress}): each run takes the state of its event
 * of the highest version, and each ready node becomes its job. The one place where a workflow node becomes a job.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>All of a poll's events in one transaction: the runs' new states and their ready nodes' jobs commit together, or
 *       nothing does.</li>
 *   <li>A run's state only moves forward: an event whose version is not above the row's ({@code progress_version}) does
 *       not change it.</li>
 *   <li>A node is made into a job exactly once: its id is {@code JobIds.forNode(runId, nodeId)}, and the insert is
 *       idempotent on it ({@code SubmissionStore.insertOnce}), so a redelivered or republished event makes nothing
 *       more. Ready nodes of every event are made, a stale one's too: their jobs were made with it, or are made now.</li>
 *   <li>A run that moves to an end ({@code COMPLETED}, {@code FAILED}, {@code CANCELLED}) is told to the subscriptions
 *       to its workflow ({@link RunSubscribers}) in the same transaction: one delivery per subscription, whose id the
 *       end's progress version fixes, so a redelivered event tells nothing more. A run retried (or resumed by a
 *       node's requeue) goes from its end back to {@code RUNNING}, and its next end is told again.</li>
 *   <li>The job goes the way of a submission ({@code PENDING} with its outbox row, its event handed to the relay after
 *       the commit), made from the node's job of the run's version, in the workflow's tenant, its payload with
 *       {@code input} (the run's) and {@code results} (its dependencies'), its origin the node, its trace the run's.</li>
 * </ul>
 * Runs on the reactive SQL client, on the caller's Vert.x context; never blocks.
 */
@ApplicationScoped
public class WorkflowProgress {

    private static final Logger LOG = Logger.getLogger(WorkflowProgress.class);

    private final Pool pool;
    private final RunSubscribers subscribers;
    private final WorkflowProgressStore store;
    private final SubmissionStore jobs;
    private final JobSubmissionService submissions;
    private final int defaultRetryCount;
    private final Counter made;
    private final Counter stale;
    private final Counter unknownRun;

    public WorkflowProgress(Pool pool, WorkflowProgressStore store, SubmissionStore jobs,
                            JobSubmissionService submissions, JobApiConfig config, MeterRegistry registry,
                            RunSubscribers subscribers) {
        this.pool = pool;
        this.subscribers = subscribers;
        this.store = store;
        this.jobs = jobs;
        this.submissions = submissions;
        this.defaultRetryCount = config.validation().defaultRetryCount();
        this.made = Counters.of(registry, "jobweaver.workflow.node.jobs",
                "Jobs made for ready workflow nodes (a repeated ready node is not counted)");
        this.stale = Counters.of(registry, "jobweaver.workflow.progress.ignored",
                "Workflow progress events that did not change their run: older than what it holds", "reason", "stale");
        this.unknownRun = Counters.of(registry, "jobweaver.workflow.progress.ignored",
                "Workflow progress events of a run the API does not have", "reason", "no-run");
    }

    /**
     * What happened to a poll's events.
     *
     * @param endsTold the notifications of runs' ends recorded
     */
    public record Applied(int runsChanged, int jobsMade, int endsTold) {
    }

    /**
     * Applies {@code events} in one transaction; after its commit hands the new jobs' events to the outbox relay. Fails
     * when the transaction fails (nothing of it is stored); a ready node that the run's version does not have fails it
     * with an {@link InvalidRecordException}, so the caller splits the events to set the one at fault aside.
     */
    public Uni<Applied> apply(List<WorkflowProgressEvent> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().item(new Applied(0, 0, 0));
        }
        List<JobSubmissionService.Pending> pending = new ArrayList<>();
        return pool.withTransaction(connection -> apply(connection, events, pending))
                .invoke(applied -> {
                    submissions.relayCommitted(pending);
                    made.increment(applied.jobsMade());
                    if (applied.endsTold() > 0) {
                        subscribers.runsCommitted();
                    }
                });
    }

    private Uni<Applied> apply(SqlConnection connection, List<WorkflowProgressEvent> events,
                               List<JobSubmissionService.Pending> pending) {
        Map<UUID, WorkflowProgressEvent> latest = new LinkedHashMap<>();
        for (WorkflowProgressEvent event : events) {
            latest.merge(event.runId(), event, (a, b) -> b.version() > a.version() ? b : a);
        }
        return store.find(connection, latest.keySet()).chain(runs -> {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            List<WorkflowProgressStore.Change> changes = new ArrayList<>();
            List<RunSubscribers.RunEnded> ended = new ArrayList<>();
            for (WorkflowProgressEvent event : latest.values()) {
                WorkflowProgressStore.Run run = runs.get(event.runId());
                if (run == null) {
                    LOG.warnf("progress of workflow run %s, which the API does not have: ignored", event.runId());
                    unknownRun.increment();
                } else if (event.version() > run.progressVersion()) {
                    changes.add(new WorkflowProgressStore.Change(event.runId(), event.status().name(),
                            JsonColumns.write(event.nodes()), event.version(), event.finishedAt()));
                    // an end, told once (the row is locked, and its version moves past this event's). A run reports
                    // an end once and then nothing more, unless it is retried or resumed: so a newer end, even the
                    // same status as the row's, is the end of the run's next go, and is told again
                    if (event.status().terminal()) {
                        ended.add(new RunSubscribers.RunEnded(run.id(), run.workflowId(), event.status(),
                                event.version(), run.traceId(), event.changedAt(), event.finishedAt()));
                    }
                }
            }
            Map<UUID, JobSubmissionService.Pending> byJob = new LinkedHashMap<>();
            Map<UUID, List<WorkflowDefinition.Node>> definitions = new HashMap<>();
            for (WorkflowProgressEvent event : events) {
                WorkflowProgressStore.Run run = runs.get(event.runId());
                if (run == null || event.ready() == null) {
                    continue;
                }
                List<WorkflowDefinition.Node> nodes = definitions.computeIfAbsent(run.id(),
                        id -> WorkflowJson.nodes(run.definitionJson()));
                for (WorkflowProgressEvent.ReadyNode ready : event.ready()) {
                    if (!byJob.containsKey(ready.jobId())) {
                        byJob.put(ready.jobId(), prepare(run, node(nodes, run, ready.nodeId()), ready, now));
                    }
                }
            }
            // every event of a known run that does not become its state: superseded in the poll, or older than the row
            long known = events.stream().filter(e -> runs.containsKey(e.runId())).count();
            Uni<Set<UUID>> inserted = byJob.isEmpty() ? Uni.createFrom().item(Set.of())
                    : jobs.insertOnce(connection, byJob.values().stream().map(JobSubmissionService.Pending::job)
                            .toList(), submissions.instance());
            Uni<Integer> told = ended.isEmpty() ? Uni.createFrom().item(0)
                    : subscribers.runsEnded(connection, ended);
            return store.apply(connection, changes).chain(changed -> inserted.chain(stored -> told.map(ends -> {
                Set<UUID> fresh = new LinkedHashSet<>(stored);
                byJob.forEach((id, job) -> {
                    if (fresh.contains(id)) {
                        pending.add(job);
                    }
                });
                stale.increment(known - changed);
                return new Applied(changed, fresh.size(), ends);
            })));
        });
    }

    private static WorkflowDefinition.Node node(List<WorkflowDefinition.Node> nodes, WorkflowProgressStore.Run run,
                                                String nodeId) {
        for (WorkflowDefinition.Node node : nodes) {
            if (node.id().equals(nodeId)) {
                return node;
            }
        }
        throw new InvalidRecordException("ready node '" + nodeId + "' is not a node of workflow " + run.workflowId()
                + " version " + run.version() + " (run " + run.id() + ")");
    }

    /** The job of a ready node, ready to store. */
    private JobSubmissionService.Pending prepare(WorkflowProgressStore.Run run, WorkflowDefinition.Node node,
                                                 WorkflowProgressEvent.ReadyNode ready, Instant now) {
        JobRequest request;
        try {
            request = JsonColumns.mapper().treeToValue(node.job(), JobRequest.class);
        } catch (IOException e) {
            // validated when stored: a version no job can be made from is a fault of its own, not a passing one
            throw new IllegalStateException("the job of node '" + node.id() + "' of workflow " + run.workflowId()
                    + " version " + run.version() + " cannot be read: " + e.getMessage(), e);
        }
        ObjectNode payload = request.payload() instanceof ObjectNode object ? object.deepCopy()
                : JsonNodeFactory.instance.objectNode();
        JsonNode input = JsonColumns.tree(run.inputJson());
        if (input != null) {
            payload.set(Payloads.INPUT, input);
        }
        ObjectNode results = JsonNodeFactory.instance.objectNode();
        if (ready.results() != null) {
            ready.results().forEach((id, result) -> results.set(id, result == null
                    ? JsonNodeFactory.instance.nullNode() : result));
        }
        payload.set(Payloads.RESULTS, results);
        int maxRetries = request.maxRetryCount() != null ? request.maxRetryCount() : defaultRetryCount;
        return submissions.prepareScheduled(ready.jobId(), request.jobType(), payload, maxRetries,
                request.control(now), now, JobOrigin.node(run.workflowId(), run.id(), node.id(),
                        run.maxConcurrency()), Context.root(), run.traceparent());
    }
}
