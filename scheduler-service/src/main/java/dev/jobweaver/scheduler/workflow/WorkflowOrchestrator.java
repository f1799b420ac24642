package dev.jobweaver.scheduler.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowNode;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.WorkflowMetrics;
import dev.jobweaver.scheduler.workflow.WorkflowRunRepository.NodeRef;
import dev.jobweaver.scheduler.workflow.WorkflowRunRepository.NodeWrite;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.ObjLongConsumer;
import org.jboss.logging.Logger;

/**
 * Drives workflow runs: starts, cancels and retries them ({@code workflow-runs}), and moves them on when their nodes'
 * jobs end or are requeued, inside the very transaction that records each job's change. No poll: every change of a run is caused by an event that
 * is itself applied under the dual-write rule.
 *
 * <h2>Guarantee</h2>
 * Every change of a run is written in the caller's transaction and published ({@code workflow-progress}, and the
 * cancels of node jobs on {@code job-commands}) and acknowledged by Kafka before that transaction commits. A crash
 * before the commit rolls back the job's end together with the run's change, and the end is applied again (its
 * outcome redelivered, its lease still expired, its command redelivered): the same change is published again, with
 * the same version and the same job ids ({@code JobIds.forNode}), which the API stores once. A crash after the commit
 * loses nothing: the change was published. So no node is forgotten, none becomes two jobs, and every run ends.
 *
 * <h2>Locks</h2>
 * A job's row before its run's, runs in runId order: the callers lock their jobs first, and this class locks no job.
 * The jobs of nodes it cancels are cancelled through {@code job-commands}, by the scheduler's own cancel path in a
 * transaction of its own, rather than locked here, and so are the jobs of nodes a retry runs again (requeued by the
 * requeue path, which then finds their nodes waiting for them already): two transactions each holding a job and waiting for the other's
 * run could otherwise deadlock, and a node's job may not even be ingested yet (the cancel is then kept for it).
 *
 * <h2>Threads</h2>
 * Runs on the Vert.x context of the caller's transaction; nothing blocks.
 */
@ApplicationScoped
public class WorkflowOrchestrator {

    private static final Logger LOG = Logger.getLogger(WorkflowOrchestrator.class);
    private static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("jobweaver.workflow.run.id");

    @Inject WorkflowRunRepository repository;
    @Inject WorkflowProgressPublisher publisher;
    @Inject WorkflowMetrics metrics;
    @Inject Tracer tracer;
    @Inject Pool pool;
    @Inject SchedulerConfig config;

    /**
     * What one transaction did to runs, to be reported once it committed ({@link #committed}) or failed
     * ({@link #failed}): metrics, log lines and the spans of its steps.
     */
    public static final class Round {

        private final List<Runnable> afterCommit = new ArrayList<>();
        private final List<Span> spans = new ArrayList<>();

        /** Runs {@code action} once the transaction committed. */
        public void onCommit(Runnable action) {
            afterCommit.add(action);
        }

        /** The transaction committed: count and log what it did, end its spans. */
        public void committed() {
            spans.forEach(s -> JobTracing.end(s, null));
            afterCommit.forEach(Runnable::run);
        }

        /** The transaction rolled back: end its spans as failed. */
        public void failed(Throwable failure) {
            spans.forEach(s -> JobTracing.end(s, failure));
        }
    }

    /** A new round, for one transaction. */
    public Round round() {
        return new Round();
    }

    /**
     * In {@code tx}, after the caller wrote them: moves on the runs of those of {@code jobs} that are node jobs and
     * ended ({@code COMPLETED}, {@code FAILED}, {@code CANCELLED}); other jobs cost one index probe for the lot, none
     * when no job ended. Completes once the runs' changes are written and published.
     */
    public Uni<Void> jobsEnded(SqlConnection tx, Collection<JobExecution> jobs, Round round) {
        Map<UUID, JobStatus> ended = new LinkedHashMap<>();
        for (JobExecution job : jobs) {
            if (job.status() == JobStatus.COMPLETED || job.status() == JobStatus.FAILED
                    || job.status() == JobStatus.CANCELLED) {
                ended.put(job.jobId(), job.status());
            }
        }
        return jobsEnded(tx, ended, round);
    }

    /** {@link #jobsEnded(SqlConnection, Collection, Round)} for jobs known by id and status. */
    public Uni<Void> jobsEnded(SqlConnection tx, Map<UUID, JobStatus> ended, Round round) {
        if (ended.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return repository.nodesOfJobs(tx, ended.keySet()).chain(refs -> {
            if (refs.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            Set<UUID> runIds = new TreeSet<>();
            refs.values().forEach(r -> runIds.add(r.runId()));
            return repository.lockRuns(tx, runIds).chain(locked -> {
                Map<UUID, RunProgress> runs = new LinkedHashMap<>();
                for (Map.Entry<UUID, JobStatus> end : ended.entrySet()) {
                    NodeRef ref = refs.get(end.getKey());
                    WorkflowRun run = ref == null ? null : locked.runs().get(ref.runId());
                    if (run == null || run.isCancelBeforeStart()) {
                        continue;
                    }
                    RunProgress progress = runs.computeIfAbsent(run.runId(),
                            id -> new RunProgress(run, locked.nodes().getOrDefault(id, List.of())));
                    progress.jobEnded(ref.nodeId(), end.getValue(), locked.now());
                }
                return settle(tx, runs.values(), locked.now(), "node ended", round);
            });
        });
    }

    /**
     * In {@code tx}, after the caller requeued them (their rows locked): resumes the runs of those of {@code jobIds}
     * that are node jobs ({@link RunProgress#nodeRequeued}); a node a retry of its run made wait for its job already
     * changes nothing. Completes once the runs' changes are written and published.
     */
    public Uni<Void> jobsRequeued(SqlConnection tx, Collection<UUID> jobIds, Round round) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return repository.nodesOfJobs(tx, jobIds).chain(refs -> {
            if (refs.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            Set<UUID> runIds = new TreeSet<>();
            refs.values().forEach(r -> runIds.add(r.runId()));
            return repository.lockRuns(tx, runIds).chain(locked -> {
                Map<UUID, RunProgress> runs = new LinkedHashMap<>();
                for (UUID jobId : jobIds) {
                    NodeRef ref = refs.get(jobId);
                    WorkflowRun run = ref == null ? null : locked.runs().get(ref.runId());
                    if (run == null || run.isCancelBeforeStart()) {
                        continue;
                    }
                    RunProgress progress = runs.computeIfAbsent(run.runId(),
                            id -> new RunProgress(run, locked.nodes().getOrDefault(id, List.of())));
                    WorkflowRunStatus before = progress.run().status();
                    if (progress.nodeRequeued(ref.nodeId(), locked.now())) {
                        round.afterCommit.add(() -> {
                            if (before.terminal()) {
                                metrics.retried();
                            }
                            LOG.infof("workflow run %s: node %s runs again, its job %s requeued (run was %s)",
                                    run.runId(), ref.nodeId(), jobId, before);
                        });
                    }
                }
                return settle(tx, runs.values(), locked.now(), "node requeued", round);
            });
        });
    }

    /**
     * Those of the node jobs {@code runOfJob} (jobId to its origin's runId) that must not run: their run has ended (or
     * was cancelled before its START), or their node was cancelled or skipped. Ingestion stores them {@code CANCELLED},
     * as jobs whose cancel came first. A job of a run not stored is no orphan: its START may have published its roots
     * and rolled back, to be applied again (see {@link #applyAll}).
     */
    public Uni<Set<UUID>> orphans(SqlClient client, Map<UUID, UUID> runOfJob) {
        if (runOfJob.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return repository.orphanJobs(client, runOfJob);
    }

    /** Counts node jobs stored {@code CANCELLED} because their run had ended; after the commit. */
    public void orphansStored(int jobs) {
        metrics.orphaned(jobs);
    }

    /**
     * Applies a poll of {@code workflow-runs} in one transaction, in order: a START stores its run once and makes its
     * roots ready (a START already stored changes nothing; one whose CANCEL came first makes a cancelled run); a
     * CANCEL ends a running run {@code CANCELLED} (one before its START is kept); a RETRY runs the unfinished nodes of
     * a run ended {@code FAILED} or {@code CANCELLED} again ({@link RunProgress#retry}); a PURGE deletes a finished
     * run. Completes after the commit.
     */
    public Uni<Void> applyAll(List<WorkflowRunEvent> events) {
        if (events.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Round round = round();
        return pool.withTransaction(tx -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (WorkflowRunEvent event : events) {
                        chain = chain.chain(() -> switch (event.kind()) {
                            case START -> start(tx, event, round);
                            case CANCEL -> cancel(tx, event, round);
                            case RETRY -> retry(tx, event, round);
                            case PURGE -> purge(tx, event, round);
                        });
                    }
                    return chain;
                })
                .onItemOrFailure().invoke((ok, failure) -> {
                    if (failure == null) {
                        round.committed();
                    } else {
                        round.failed(failure);
                    }
                });
    }

    private Uni<Void> start(SqlConnection tx, WorkflowRunEvent event, Round round) {
        WorkflowRun run = new WorkflowRun(event.runId(), event.workflowId(), event.version(), event.tenant(),
                event.onFailure(), event.maxConcurrency(), WorkflowRunStatus.RUNNING, 0, event.traceId(),
                event.traceparent(), event.at() != null ? event.at() : Instant.now(), null, event.scheduleId());
        List<RunNode> nodes = new ArrayList<>(event.nodes().size());
        for (int i = 0; i < event.nodes().size(); i++) {
            WorkflowNode node = event.nodes().get(i);
            nodes.add(new RunNode(node.id(), i, node.dependsOn(), NodeStatus.WAITING,
                    JobIds.forNode(event.runId(), node.id()), null));
        }
        return repository.insertRun(tx, run).chain(inserted -> {
            if (inserted.isPresent()) {
                Instant now = inserted.get();
                RunProgress progress = new RunProgress(run, nodes);
                progress.start(now);
                // A START applied again after a rollback: its roots may have been made, even ended, meanwhile.
                Map<UUID, String> roots = new LinkedHashMap<>();
                progress.ready().forEach(n -> roots.put(n.jobId(), n.nodeId()));
                return repository.insertNodes(tx, run.runId(), nodes)
                        .chain(() -> repository.endedJobs(tx, roots.keySet()))
                        .chain(ended -> {
                            ended.forEach((jobId, status) -> progress.jobEnded(roots.get(jobId), status, now));
                            round.afterCommit.add(() -> {
                                metrics.started();
                                LOG.infof("workflow run %s of workflow %s v%d started: %d node(s)", run.runId(),
                                        run.workflowId(), run.version(), nodes.size());
                            });
                            return settle(tx, List.of(progress), now, "start", round);
                        });
            }
            return repository.lockRuns(tx, List.of(run.runId())).chain(locked -> {
                WorkflowRun stored = locked.runs().get(run.runId());
                if (stored == null || !stored.isCancelBeforeStart()) {
                    round.afterCommit.add(() -> LOG.debugf("workflow run %s: START redelivered, nothing changed",
                            run.runId()));
                    return Uni.createFrom().voidItem();
                }
                // Its CANCEL came first: the run is stored with its graph, every node CANCELLED, and reported.
                return repository.fillCancelBeforeStart(tx, run)
                        .chain(() -> repository.insertNodes(tx, run.runId(), nodes))
                        .chain(() -> {
                            RunProgress progress = new RunProgress(run, nodes);
                            progress.cancel(stored.finishedAt() != null ? stored.finishedAt() : locked.now());
                            round.afterCommit.add(() -> {
                                metrics.started();
                                LOG.infof("workflow run %s started CANCELLED: its cancel came first", run.runId());
                            });
                            return settle(tx, List.of(progress), locked.now(), "start", round);
                        });
            });
        });
    }

    /**
     * A PURGE (the API's retention): the run is forgotten with its nodes if it has finished; one that has not stays,
     * and a purge repeated finds nothing to delete.
     */
    private Uni<Void> purge(SqlConnection tx, WorkflowRunEvent event, Round round) {
        return repository.deleteFinishedRun(tx, event.runId()).invoke(deleted -> round.afterCommit.add(() ->
                LOG.debugf("workflow run %s: %s", event.runId(),
                        deleted ? "purged, its retention ended" : "purge ignored, not a finished run")))
                .replaceWithVoid();
    }

    private Uni<Void> cancel(SqlConnection tx, WorkflowRunEvent event, Round round) {
        return repository.lockRuns(tx, List.of(event.runId())).chain(locked -> {
            WorkflowRun stored = locked.runs().get(event.runId());
            if (stored == null) {
                WorkflowRun kept = new WorkflowRun(event.runId(), null, null, null, null, null,
                        WorkflowRunStatus.CANCELLED, 0, null, null,
                        event.at() != null ? event.at() : locked.now(), locked.now(), null);
                round.afterCommit.add(() -> LOG.infof(
                        "workflow run %s: cancel before its start, kept: the run will start CANCELLED", event.runId()));
                return repository.insertRun(tx, kept).replaceWithVoid();
            }
            if (stored.isCancelBeforeStart()) {
                return Uni.createFrom().voidItem();
            }
            RunProgress progress = new RunProgress(stored, locked.nodes().getOrDefault(stored.runId(), List.of()));
            if (!progress.cancel(locked.now())) {
                round.afterCommit.add(() -> LOG.debugf("workflow run %s: cancel ignored, run is %s", stored.runId(),
                        stored.status()));
                return Uni.createFrom().voidItem();
            }
            return settle(tx, List.of(progress), locked.now(), "cancel", round);
        });
    }

    /**
     * A client's retry of an ended run: its run locked (no job: their rows are read, not locked, and the jobs to run
     * again are requeued through {@code job-commands}, which keeps the job-before-run lock order), its unfinished nodes
     * made to wait again, the change published. A retry of a run that has not ended, ended {@code COMPLETED}, ended
     * anew since, or is unknown changes nothing.
     */
    private Uni<Void> retry(SqlConnection tx, WorkflowRunEvent event, Round round) {
        return repository.lockRuns(tx, List.of(event.runId())).chain(locked -> {
            WorkflowRun stored = locked.runs().get(event.runId());
            if (stored == null || stored.isCancelBeforeStart()) {
                round.afterCommit.add(() -> LOG.infof("workflow run %s: retry ignored, the run is not known",
                        event.runId()));
                return Uni.createFrom().voidItem();
            }
            RunProgress progress = new RunProgress(stored, locked.nodes().getOrDefault(stored.runId(), List.of()));
            Set<UUID> jobs = progress.jobsOfUnfinishedNodes();
            Uni<Map<UUID, JobStatus>> statuses = jobs.isEmpty() ? Uni.createFrom().item(Map.of())
                    : repository.endedJobs(tx, jobs);
            return statuses.chain(byJob -> {
                RunProgress.Retry verdict = progress.retry(event.progressVersion(), byJob, locked.now());
                if (verdict != RunProgress.Retry.RETRIED) {
                    round.afterCommit.add(() -> LOG.infof("workflow run %s: retry from version %d ignored (%s): run"
                                    + " is %s at version %d", stored.runId(), event.progressVersion(), verdict,
                            stored.status(), stored.progressVersion()));
                    return Uni.createFrom().voidItem();
                }
                int rerun = progress.changedNodes().size();
                round.afterCommit.add(() -> {
                    metrics.retried();
                    LOG.infof("workflow run %s retried (was %s): %d node(s) run again, %d job(s) requeued",
                            stored.runId(), stored.status(), rerun, progress.jobsToRequeue().size());
                });
                return settle(tx, List.of(progress), locked.now(), "retry", round);
            });
        });
    }

    /**
     * Writes and publishes what {@code runs} changed: the ready nodes with their dependencies' results (over as many
     * records as the bound takes; a node whose own results exceed it fails), the nodes, the run, the cancels of node
     * jobs. Completes when Kafka acknowledged every record.
     */
    private Uni<Void> settle(SqlConnection tx, Collection<RunProgress> runs, Instant now, String step, Round round) {
        List<RunProgress> changed = runs.stream().filter(RunProgress::changed).toList();
        if (changed.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Set<UUID> dependencyJobs = new LinkedHashSet<>();
        for (RunProgress progress : changed) {
            for (RunNode node : progress.ready()) {
                node.dependsOn().forEach(d -> dependencyJobs.add(progress.node(d).jobId()));
            }
        }
        Uni<Map<UUID, JsonNode>> results = dependencyJobs.isEmpty() ? Uni.createFrom().item(Map.of())
                : repository.results(tx, dependencyJobs);
        return results.chain(byJob -> {
            List<NodeWrite> nodeWrites = new ArrayList<>();
            List<WorkflowRun> runWrites = new ArrayList<>();
            List<Uni<Void>> publishes = new ArrayList<>();
            Map<UUID, Integer> sizes = new HashMap<>();
            for (RunProgress progress : changed) {
                WorkflowRunStatus before = progress.initialStatus();
                List<List<WorkflowProgressEvent.ReadyNode>> batches = readyBatches(progress, byJob, sizes, now,
                        round);
                Span span = tracer.spanBuilder("scheduler workflow " + step)
                        .setParent(JobTracing.fromTraceparent(progress.run().traceparent()))
                        .setSpanKind(SpanKind.INTERNAL)
                        .setAttribute(RUN_ID, progress.run().runId().toString())
                        .startSpan();
                round.spans.add(span);
                Context trace = Context.root().with(span);
                for (List<WorkflowProgressEvent.ReadyNode> ready : batches) {
                    long version = progress.nextVersion();
                    publishes.add(publisher.progress(event(progress, version, ready, now), trace));
                }
                for (UUID jobId : progress.jobsToCancel()) {
                    publishes.add(publisher.cancelJob(new JobCommandEvent(jobId, JobCommand.CANCEL,
                            progress.run().traceId(), now), trace));
                }
                for (UUID jobId : progress.jobsToRequeue()) {
                    // names no failure: a retry runs a node's job again whether it failed or was cancelled
                    publishes.add(publisher.requeueJob(JobCommandEvent.requeue(jobId, progress.run().traceId(), now,
                            null, null, null), progress.run().progressVersion(), trace));
                }
                progress.changedNodes().forEach(n -> nodeWrites.add(new NodeWrite(progress.run().runId(), n)));
                runWrites.add(progress.run());
                WorkflowRun after = progress.run();
                int readyCount = batches.stream().mapToInt(List::size).sum();
                span.setAttribute("jobweaver.workflow.run.status", after.status().name());
                span.setAttribute("jobweaver.workflow.nodes.ready", (long) readyCount);
                round.afterCommit.add(() -> {
                    metrics.ready(readyCount);
                    if (after.status().terminal() && !before.terminal()) {
                        metrics.ended(after.status().name());
                        LOG.infof("workflow run %s ended %s", after.runId(), after.status());
                    }
                });
            }
            return repository.writeNodes(tx, nodeWrites)
                    .chain(() -> repository.writeRuns(tx, runWrites))
                    .chain(() -> Uni.join().all(publishes).andFailFast().replaceWithVoid());
        });
    }

    /**
     * The ready nodes of {@code progress} with their dependencies' results, in records whose results together stay
     * within the bound; one empty batch when no node is ready (the change itself is still reported). A node whose own
     * results exceed the bound fails first, which may cancel others ({@code FAIL_FAST}).
     */
    private List<List<WorkflowProgressEvent.ReadyNode>> readyBatches(RunProgress progress, Map<UUID, JsonNode> byJob,
                                                                     Map<UUID, Integer> sizes, Instant now,
                                                                     Round round) {
        UUID runId = progress.run().runId();
        int maxReadyResultsBytes = config.workflows().maxReadyResultsBytes();
        return readyBatches(progress, byJob, sizes, maxReadyResultsBytes, now, (node, size) ->
                round.afterCommit.add(() -> {
                    metrics.resultsTooLarge();
                    LOG.warnf("workflow run %s: node %s FAILED: its dependencies' results are %d bytes of JSON, more"
                                    + " than one record carries (jobweaver.scheduler.workflows.max-ready-results-bytes"
                                    + " = %d)", runId, node, size, maxReadyResultsBytes);
                }));
    }

    /**
     * {@link #readyBatches(RunProgress, Map, Map, Instant, Round)} with bound {@code maxBytes}; {@code tooLarge} is told
     * each node failed for its results' size.
     */
    static List<List<WorkflowProgressEvent.ReadyNode>> readyBatches(RunProgress progress, Map<UUID, JsonNode> byJob,
                                                                    Map<UUID, Integer> sizes, long maxBytes,
                                                                    Instant now,
                                                                    ObjLongConsumer<String> tooLarge) {
        for (RunNode node : progress.ready()) {
            long size = node.dependsOn().stream().mapToLong(d -> size(progress.node(d).jobId(), byJob, sizes)).sum();
            if (size > maxBytes) {
                progress.nodeFailed(node.nodeId(), now);
                tooLarge.accept(node.nodeId(), size);
            }
        }
        List<List<WorkflowProgressEvent.ReadyNode>> batches = new ArrayList<>();
        List<WorkflowProgressEvent.ReadyNode> batch = new ArrayList<>();
        long batchBytes = 0;
        for (RunNode node : progress.ready()) {
            Map<String, JsonNode> results = new LinkedHashMap<>();
            long size = 0;
            for (String dependency : node.dependsOn()) {
                UUID jobId = progress.node(dependency).jobId();
                results.put(dependency, byJob.getOrDefault(jobId, NullNode.getInstance()));
                size += size(jobId, byJob, sizes);
            }
            if (!batch.isEmpty() && batchBytes + size > maxBytes) {
                batches.add(batch);
                batch = new ArrayList<>();
                batchBytes = 0;
            }
            batch.add(new WorkflowProgressEvent.ReadyNode(node.nodeId(), node.jobId(), results));
            batchBytes += size;
        }
        batches.add(batch);
        return batches;
    }

    private static int size(UUID jobId, Map<UUID, JsonNode> byJob, Map<UUID, Integer> sizes) {
        return sizes.computeIfAbsent(jobId, id -> {
            JsonNode result = byJob.get(id);
            return result == null ? 4 : result.toString().getBytes(StandardCharsets.UTF_8).length;
        });
    }

    private static WorkflowProgressEvent event(RunProgress progress, long version,
                                               List<WorkflowProgressEvent.ReadyNode> ready, Instant now) {
        WorkflowRun run = progress.run();
        List<WorkflowProgressEvent.Node> nodes = progress.nodes().stream()
                .map(n -> new WorkflowProgressEvent.Node(n.nodeId(), n.status(),
                        n.readyAt() != null ? n.jobId() : null))
                .toList();
        return new WorkflowProgressEvent(run.runId(), run.workflowId(), version, run.status(), nodes, ready, now,
                run.finishedAt());
    }
}
