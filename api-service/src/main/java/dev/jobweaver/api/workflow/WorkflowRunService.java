package dev.jobweaver.api.workflow;

import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.api.job.store.JobReadStore;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.JobApiConfig;
import dev.jobweaver.api.job.JobCreatedPublisher;
import dev.jobweaver.api.job.PublishFailedException;
import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Starts, reads, cancels and retries workflow runs. A start stores the run ({@code PENDING}, every node
 * {@code WAITING}) with the workflow's latest version and, once committed, publishes its {@code START} to the scheduler
 * without the caller waiting; a cancel likewise its {@code CANCEL}. The run's row is the outbox of both
 * ({@link RunAsks}), so what Kafka does not acknowledge the republisher publishes later. A retry is published under the
 * run's lock and answered once Kafka acknowledged it, as a dead letter's requeue is.
 *
 * <p>Each run has its own span, "workflow run", a child of the caller's context: its trace is the run's one trace, and
 * its {@code traceparent} (stored with the run) is the parent of every node job's span. Methods return {@code Uni}s to
 * subscribe on a Vert.x event loop (a request's, or a consumer's), where Hibernate Reactive's session lives.
 */
@ApplicationScoped
public class WorkflowRunService {

    @Inject WorkflowRepository workflows;
    @Inject WorkflowVersionRepository versions;
    @Inject WorkflowRunRepository runs;
    @Inject WorkflowRunPublisher publisher;
    @Inject JobCreatedPublisher traces;
    @Inject Tracer tracer;
    @Inject WorkflowConfig config;
    @Inject JobReadStore jobs;
    @Inject JobApiConfig commands;

    /**
     * A run just started: its id, its trace, and the version it keeps.
     *
     * @param repeated whether the run was stored before under its id, and this start changed nothing
     */
    public record StartedRun(UUID runId, String traceId, UUID workflowId, int version, WorkflowRunStatus status,
                             boolean repeated) {
    }

    /** What a cancel found: the run as it is after it, and whether it had ended already (then nothing was asked). */
    public record Cancel(StoredRun run, boolean ended) {
    }

    /**
     * What a retry found: the run as it was, and whether it was asked (it had ended {@code FAILED} or
     * {@code CANCELLED}); nothing was asked otherwise.
     */
    public record Retry(StoredRun run, boolean asked) {
    }

    /**
     * Why {@code input} cannot be a run's input (a sentence naming the field), or null when it can: any JSON, at most
     * {@code jobweaver.api.workflows.max-input-bytes} bytes.
     */
    public String inputProblem(JsonNode input) {
        if (input == null || input.isNull()) {
            return null;
        }
        int bytes = JsonColumns.write(input).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        return bytes > config.maxInputBytes() ? "input is " + bytes + " bytes of JSON, at most "
                + config.maxInputBytes() + " are allowed" : null;
    }

    /**
     * Starts a run of the workflow's latest version with {@code input} (any JSON, or null), in a new trace (or the
     * current context's); the entry point of inbound hooks and schedules. Null when there is no such workflow; fails
     * with {@link IllegalArgumentException} when {@link #inputProblem} finds one.
     */
    public Uni<StartedRun> start(UUID workflowId, JsonNode input) {
        return start(workflowId, input, Context.current(), null);
    }

    /**
     * Starts a run, its span a child of {@code parent} (a request's), or of {@code traceparent} (a client's header) when
     * {@code parent} has no valid span. Answers once the run is committed; its {@code START} is published after.
     */
    public Uni<StartedRun> start(UUID workflowId, JsonNode input, Context parent, String traceparent) {
        return start(JobIds.next(), workflowId, input, parent, traceparent);
    }

    /**
     * {@link #start(UUID, JsonNode, Context, String)} with the run's id given: a caller that may start the same run
     * twice (a hook's call repeated) names it, and the second start finds it and answers it as it is.
     */
    public Uni<StartedRun> start(UUID runId, UUID workflowId, JsonNode input, Context parent, String traceparent) {
        return start(runId, workflowId, input, parent, traceparent, null);
    }

    /** The schedule tick (or trigger) that starts a run: the schedule and the tick's time. */
    public record ScheduledBy(UUID scheduleId, Instant scheduledFor) {
    }

    /**
     * A run started by a schedule ({@code scheduledBy}, or by none: null), with the run's id given: a tick consumed
     * again names the same run, and the second start finds it and answers it as it is.
     */
    public Uni<StartedRun> start(UUID runId, UUID workflowId, JsonNode input, Context parent, String traceparent,
                                 ScheduledBy scheduledBy) {
        String problem = inputProblem(input);
        if (problem != null) {
            return Uni.createFrom().failure(new IllegalArgumentException(problem));
        }
        Context runContext = runContext(parent, traceparent);
        Span span = Span.fromContext(runContext);
        return Panache.withTransaction(() -> store(runId, workflowId, input, runContext, scheduledBy))
                .map(started -> started == null ? null : publishLater(started.asks(), started.run()))
                .onTermination().invoke(span::end);
    }

    /**
     * A run stored in the caller's transaction by {@link #startInTransaction}: what to answer, and what to ask of the
     * scheduler once that transaction committed ({@link #committed}). Opaque to callers.
     */
    public static final class PendingStart {

        private final Started started;

        private PendingStart(Started started) {
            this.started = started;
        }

        /** The run, as {@link #committed} will answer it. */
        public StartedRun run() {
            return started.run();
        }
    }

    /**
     * Stores a run as {@link #start(UUID, UUID, JsonNode, Context, String)} does, but in the caller's Panache
     * transaction (call it inside {@link Panache#withTransaction}, on that transaction's context), so that the run and
     * what the caller writes beside it commit together or not at all: an application event stores its runs and its
     * answer so. Nothing is published: once the transaction committed, the caller hands each start to
     * {@link #committed}; a start the caller drops (its transaction rolled back) leaves nothing behind. Null when
     * there is no such workflow; fails with {@link IllegalArgumentException} when {@link #inputProblem} finds one.
     */
    public Uni<PendingStart> startInTransaction(UUID runId, UUID workflowId, JsonNode input, Context parent) {
        String problem = inputProblem(input);
        if (problem != null) {
            return Uni.createFrom().failure(new IllegalArgumentException(problem));
        }
        Context runContext = runContext(parent, null);
        Span span = Span.fromContext(runContext);
        // the span covers the store; the run's trace goes on in its node jobs, whatever the caller does after
        return store(runId, workflowId, input, runContext, null)
                .map(started -> started == null ? null : new PendingStart(started))
                .onTermination().invoke(span::end);
    }

    /**
     * Asks the scheduler to start {@code start}'s run (without waiting), once the transaction that stored it committed;
     * answers the run. A run the transaction found stored before asks nothing again.
     */
    public StartedRun committed(PendingStart start) {
        return publishLater(start.started.asks(), start.started.run());
    }

    /**
     * Stores run {@code runId} in the current Panache transaction, or finds it stored before under that id (then asks
     * nothing); null when the workflow does not exist.
     */
    private Uni<Started> store(UUID runId, UUID workflowId, JsonNode input, Context runContext,
                               ScheduledBy scheduledBy) {
        Span span = Span.fromContext(runContext);
        span.setAttribute("jobweaver.workflow.id", workflowId.toString());
        span.setAttribute("jobweaver.workflow.run.id", runId.toString());
        if (scheduledBy != null) {
            span.setAttribute("jobweaver.schedule.id", scheduledBy.scheduleId().toString());
        }
        String traceId = span.getSpanContext().getTraceId();
        String runTraceparent = traces.traceparentOf(runContext);
        Instant now = WorkflowService.now();
        return runs.findById(runId).chain(existing -> {
            if (existing != null) {
                // started before under this id: answered as it is, nothing asked again
                return Uni.createFrom().item(new Started(new StartedRun(existing.id, existing.traceId,
                        existing.workflowId, existing.workflowVersion, existing.status, true), null));
            }
            return workflows.findLive(workflowId).chain(workflow -> {
                if (workflow == null) {
                    return Uni.createFrom().nullItem();
                }
                return versions.find(workflowId, workflow.latestVersion).chain(version -> {
                    WorkflowRun run = new WorkflowRun();
                    run.id = runId;
                    run.workflowId = workflowId;
                    run.workflowVersion = version.version;
                    run.tenant = workflow.tenant;
                    run.status = WorkflowRunStatus.PENDING;
                    run.input = input == null || input.isNull() ? null : JsonColumns.write(input);
                    run.traceId = traceId;
                    run.traceparent = runTraceparent;
                    run.nodes = JsonColumns.write(WorkflowJson.nodes(version.nodes).stream()
                            .map(node -> new WorkflowProgressEvent.Node(node.id(), NodeStatus.WAITING, null))
                            .toList());
                    run.changeVersion = RunAsks.STARTED;
                    run.createdAt = now;
                    run.updatedAt = now;
                    if (scheduledBy != null) {
                        run.scheduleId = scheduledBy.scheduleId();
                        run.scheduledFor = scheduledBy.scheduledFor();
                    }
                    return runs.persist(run).map(ignored -> new Started(new StartedRun(run.id, traceId, workflowId,
                            version.version, run.status, false), RunAsks.of(run, version, 0)));
                });
            });
        });
    }

    private record Started(StartedRun run, RunAsks asks) {
    }

    /** The run, or null when there is none. */
    @WithSpan("find workflow run")
    @WithSession
    public Uni<StoredRun> find(UUID runId) {
        return runs.findById(runId).map(run -> run == null ? null : StoredRun.of(run));
    }

    /**
     * {@code run} with each {@code PENDING} node whose job the read model shows {@code RUNNING} shown {@code RUNNING}:
     * the scheduler reports a node when its job is asked for and when it ends, not at each dispatch, so the job's own
     * status tells whether it runs. One read of the jobs' statuses, on the reactive client, after the session.
     */
    public Uni<StoredRun> withRunningNodes(StoredRun run) {
        if (run == null) {
            return Uni.createFrom().nullItem();
        }
        List<UUID> pending = run.nodes().stream()
                .filter(n -> n.status() == NodeStatus.PENDING && n.jobId() != null)
                .map(WorkflowProgressEvent.Node::jobId).toList();
        if (pending.isEmpty()) {
            return Uni.createFrom().item(run);
        }
        return jobs.statuses(pending).map(statuses -> run.withNodes(run.nodes().stream()
                .map(n -> n.status() == NodeStatus.PENDING && n.jobId() != null
                        && statuses.get(n.jobId()) == JobStatus.RUNNING
                        ? new WorkflowProgressEvent.Node(n.id(), NodeStatus.RUNNING, n.jobId()) : n)
                .toList()));
    }

    /** A page of the workflow's runs, newest first; null when there is no such workflow (or it was deleted). */
    @WithSpan("list workflow runs")
    @WithSession
    public Uni<Slice<StoredRun>> list(UUID workflowId, int page, int size) {
        return workflows.findLive(workflowId).chain(workflow -> workflow == null ? Uni.createFrom().nullItem()
                : Slice.read(runs.page(workflowId, page, size), () -> runs.countOf(workflowId), StoredRun::of));
    }

    /**
     * Asks the scheduler to cancel the run: marks it (change 2) and, once committed, publishes its {@code CANCEL}; the
     * run shows {@code CANCELLED} once the scheduler reports it. A run already asked is answered as it is. Null when
     * there is no such run; {@link Cancel#ended()} when it has ended (nothing is asked).
     */
    @WithSpan("cancel workflow run")
    public Uni<Cancel> cancel(UUID runId) {
        Instant now = WorkflowService.now();
        return Panache.withTransaction(() -> runs.findForUpdate(runId).chain(run -> {
            if (run == null) {
                return Uni.createFrom().<CancelAsked>nullItem();
            }
            if (run.status.terminal()) {
                return Uni.createFrom().item(new CancelAsked(new Cancel(StoredRun.of(run), true), null));
            }
            if (run.cancelRequested) {
                return Uni.createFrom().item(new CancelAsked(new Cancel(StoredRun.of(run), false), null));
            }
            run.cancelRequested = true;
            // a cancel after a retry is a change of its own, so that the republisher sends it if its publish fails
            run.changeVersion = Math.max(RunAsks.CANCELLED, run.changeVersion + 1);
            run.updatedAt = now;
            int published = run.publishedVersion;
            return versions.find(run.workflowId, run.workflowVersion).map(version ->
                    new CancelAsked(new Cancel(StoredRun.of(run), false), RunAsks.of(run, version, published)));
        })).map(asked -> asked == null ? null : publishLater(asked.asks(), asked.cancel()));
    }

    /**
     * Asks the scheduler to retry a run that ended {@code FAILED} or {@code CANCELLED}: under the run's lock, publishes
     * its {@code RETRY} (from the end the row shows, its progress version) and, once Kafka acknowledged it within
     * {@code jobweaver.api.commands.timeout}, clears the run's cancel (a cancel of the retried run is a new ask) and
     * commits. The run shows {@code RUNNING} once the scheduler reports it. Fails with {@link PublishFailedException},
     * the row unchanged, when Kafka did not acknowledge in time; a retry that Kafka stored all the same changes
     * nothing more than the one the client repeats, since both name the same end. Null when there is no such run;
     * {@link Retry#asked()} false when it has not ended so (nothing is asked).
     */
    @WithSpan("retry workflow run")
    public Uni<Retry> retry(UUID runId) {
        Instant now = WorkflowService.now();
        return Panache.withTransaction(() -> runs.findForUpdate(runId).chain(run -> {
            if (run == null) {
                return Uni.createFrom().<Retry>nullItem();
            }
            if (run.status != WorkflowRunStatus.FAILED && run.status != WorkflowRunStatus.CANCELLED) {
                return Uni.createFrom().item(new Retry(StoredRun.of(run), false));
            }
            return publisher.retry(WorkflowRunEvent.retry(run.id, run.progressVersion, now))
                    .ifNoItem().after(commands.commands().timeout()).failWith(() -> new PublishFailedException(
                            "no answer from Kafka within " + commands.commands().timeout().toMillis() + " ms", null))
                    .onFailure(e -> !(e instanceof PublishFailedException)).transform(e ->
                            new PublishFailedException("Kafka did not acknowledge the retry: " + e, e))
                    .map(sent -> {
                        StoredRun asked = StoredRun.of(run);
                        run.cancelRequested = false;
                        run.updatedAt = now;
                        return new Retry(asked, true);
                    });
        }));
    }

    /** {@code answer}, once {@code asks} (null when there is nothing to ask) went to the publisher after the commit. */
    private <A> A publishLater(RunAsks asks, A answer) {
        if (asks != null) {
            publisher.publishLater(asks);
        }
        return answer;
    }

    private record CancelAsked(Cancel cancel, RunAsks asks) {
    }

    /**
     * The context of a new run's span: a child of {@code parent}'s span, or of {@code traceparent}'s. Without a
     * recording tracer (traces off), a span context of the run's own in the parent's trace, or in a new trace that is not
     * sampled, so a run always has one trace id and a traceparent its node jobs descend from.
     */
    private Context runContext(Context parent, String traceparent) {
        Context base = parent;
        if (!Span.fromContext(base).getSpanContext().isValid()) {
            Context client = traces.contextOf(traceparent);
            if (Span.fromContext(client).getSpanContext().isValid()) {
                base = client;
            }
        }
        Span span = tracer.spanBuilder("workflow run").setParent(base).startSpan();
        if (span.getSpanContext().isValid()) {
            return base.with(span);
        }
        SpanContext outer = Span.fromContext(base).getSpanContext();
        SpanContext own = SpanContext.create(outer.isValid() ? outer.getTraceId() : randomHex(16), randomHex(8),
                outer.isValid() ? outer.getTraceFlags() : TraceFlags.getDefault(), TraceState.getDefault());
        return base.with(Span.wrap(own));
    }

    private static String randomHex(int bytes) {
        byte[] random = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(random);
        return HexFormat.of().formatHex(random);
    }
}
