package dev.jobweaver.scheduler.ingestion;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.worker.WorkerPool;
import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.job.JobStateWriter;
import dev.jobweaver.scheduler.job.JobTransitions;
import dev.jobweaver.scheduler.job.LeasePolicy;
import dev.jobweaver.scheduler.job.Transition;
import dev.jobweaver.scheduler.job.store.JobInserts.EarlyCancel;
import dev.jobweaver.scheduler.job.store.JobInserts.NewJob;
import dev.jobweaver.scheduler.job.store.JobInserts.Stored;
import dev.jobweaver.scheduler.job.store.JobInserts;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import dev.jobweaver.scheduler.workflow.WorkflowOrchestrator;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Stores accepted jobs, once each, and dispatches their first attempt in the same transaction when it can.
 *
 * <h2>Guarantee</h2>
 * Idempotent: {@code INSERT ... ON CONFLICT (job_id) DO NOTHING}, so a redelivered {@code JobCreatedEvent} changes
 * nothing, whatever state the job has reached since. The events of one poll are stored in one transaction; the
 * caller acknowledges their records only after the returned {@link Uni} completed, that is after the commit.
 *
 * <h2>Dispatch at ingestion</h2>
 * While the in-flight limit allows and no due {@code PENDING} job is waiting, a new job is stored {@code RUNNING} at
 * attempt 1, and its run and {@code RUNNING} status are published and acknowledged by Kafka before the commit: the
 * {@link Dispatcher}'s dual-write rule, without storing the job {@code PENDING}, claiming it and updating it in a
 * second transaction. The other jobs are stored {@code PENDING} and the dispatcher is woken.
 *
 * <p>A job to which a concurrency limit applies (a configured one, its tenant's, its workflow's) is never dispatched
 * here: it is stored {@code PENDING} and the dispatcher, woken, starts it under the limits.
 *
 * <p>A job whose {@code runAt} is later than the statement's {@code now()} is stored {@code PENDING} with
 * {@code next_run_at = runAt}, never dispatched here, and the dispatcher's timer is armed for the earliest of them.
 * Each job's control is stored with it (an event without control stores the defaults: NORMAL, tenant
 * {@code default}), and so is its origin: the schedule tick that made it ({@code schedule_id}, {@code scheduled_for}),
 * which the overlap rule of recurring schedules reads.
 *
 * <p>A job whose cancel came first (a placeholder row, see {@code JobCommandService}) is stored {@code CANCELLED} at
 * version 1 and never dispatched; its {@code CANCELLED} status is published before the commit. That takes a second
 * statement, run only for a poll in which the insert found rows already there.
 * <ul>
 *   <li>If publishing fails (transiently), the transaction rolls back and the poll is stored again, all
 *       {@code PENDING}: a job never waits for {@code run-job} to be stored. A run already acknowledged is dispatched
 *       again later with the same attempt number, hence the same eventId, which the worker recognises as the same
 *       run.</li>
 *   <li>A permanent failure ({@link Failures}: the database refused a job's data) fails the returned Uni as it is,
 *       with nothing stored, so that the caller can split the poll and set the job aside.</li>
 *   <li>An outcome can come back before the commit. The transaction holds the ingestion fence (an advisory lock,
 *       shared) until it ends, and the outcome service waits on it for a job it cannot see
 *       ({@link JobInserts#awaitIngestions}) instead of ignoring the outcome.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Runs on the Vert.x context of the consuming channel; nothing blocks.
 */
@ApplicationScoped
public class IngestionService {

    private static final Logger LOG = Logger.getLogger(IngestionService.class);

    private final JobInserts inserts;
    private final JobStateWriter writer;
    private final Dispatcher dispatcher;
    private final LeasePolicy leasePolicy;
    private final JobTracing tracing;
    private final SchedulerMetrics metrics;
    private final ObjectMapper mapper;
    private final WorkflowOrchestrator workflows;
    private final JobTransitions transitions;
    private final WorkerPool workers;
    private final int maxInFlight;

    public IngestionService(JobInserts inserts, JobStateWriter writer, Dispatcher dispatcher,
                            LeasePolicy leasePolicy, JobTracing tracing, SchedulerMetrics metrics,
                            ObjectMapper mapper, SchedulerConfig config, WorkflowOrchestrator workflows,
                            JobTransitions transitions, WorkerPool workers) {
        this.workers = workers;
        this.inserts = inserts;
        this.writer = writer;
        this.dispatcher = dispatcher;
        this.leasePolicy = leasePolicy;
        this.tracing = tracing;
        this.metrics = metrics;
        this.mapper = mapper;
        this.workflows = workflows;
        this.transitions = transitions;
        this.maxInFlight = config.dispatch().maxInFlight();
    }

    /**
     * An accepted job and the trace context of its record.
     *
     * @param parent the trace context of the consumed record (the API's publish), or null
     */
    public record Accepted(JobCreatedEvent event, Context parent) {
    }

    /** A job of the poll being stored: its row, its event and its ingestion span. */
    private record Incoming(NewJob row, JobCreatedEvent event, Span span) {
    }

    /** Stores the jobs that are new, dispatching what it can; the ids of those that were new. */
    public Uni<Set<UUID>> ingest(List<Accepted> accepted) {
        return Uni.createFrom().deferred(() -> {
            // A job twice in one poll (a redelivery right behind the original) is stored from its first event.
            Map<UUID, Accepted> byJob = new LinkedHashMap<>();
            accepted.forEach(a -> byJob.putIfAbsent(a.event().jobId(), a));
            List<Incoming> jobs = new ArrayList<>(byJob.size());
            List<Span> started = new ArrayList<>(byJob.size());
            LiveWorkers live = workers.live();
            try {
                for (Accepted a : byJob.values()) {
                    JobCreatedEvent event = a.event();
                    Span span = tracing.start("scheduler ingest", a.parent() != null ? a.parent() : Context.root(),
                            event.jobId(), 0);
                    started.add(span);
                    // The trace the API told the client about; the span's own trace if the event did not say.
                    String traceId = event.traceId() != null && !event.traceId().isBlank()
                            ? event.traceId() : JobTracing.traceId(span);
                    // Truncated as the database stores it, so that the run carries the stored instant.
                    Instant createdAt = (event.createdAt() != null ? event.createdAt() : Instant.now())
                            .truncatedTo(ChronoUnit.MICROS);
                    // the defaults its type's handler declares, where the job sets nothing of its own
                    JobControl control = JobInserts.asStored(live.withDefaults(event.control(), event.jobType().name()));
                    jobs.add(new Incoming(new NewJob(event.jobId(), event.jobType().name(), traceId,
                            JobTracing.traceparent(span), instruction(event), event.maxRetries(), createdAt,
                            leasePolicy.leaseFor(event.jobType(), event.payload(), control).toMillis(), control,
                            event.origin()),
                            event, span));
                }
                // Jobs to start at once first: the statement dispatches the first of the poll while slots last, and a
                // job due later in that place would take none but push a due one behind the limit.
                Instant now = Instant.now();
                jobs.sort(Comparator.comparing((Incoming j) -> isLater(j.row().control(), now)));
            } catch (RuntimeException e) {
                // A job the rules let through but that cannot be turned into a row: a permanent failure of the poll,
                // which the caller splits; the spans already started end with it.
                started.forEach(span -> JobTracing.end(span, e));
                throw e;
            }
            List<NewJob> rows = jobs.stream().map(Incoming::row).toList();
            List<JobExecution> dispatched = new ArrayList<>();
            long sentAt = System.nanoTime();
            return transitions.run(t -> storeAndDispatch(t, jobs, rows, dispatched),
                            (stored, t) -> afterCommit(jobs, stored, dispatched, sentAt, t))
                    // Only a transient failure (Kafka could not take the runs) falls back to PENDING. A permanent one
                    // (the database refused a job's data) would fail the same way here, or, worse, be stored and
                    // fail every dispatch round after: it goes to the caller, which splits the round to find the job.
                    .onFailure(Failures::isTransient).recoverWithUni(failure -> {
                        LOG.warnf("could not dispatch %d new job(s) as they were stored (%s): storing them PENDING",
                                rows.size(), failure.toString());
                        dispatched.clear();
                        return transitions.run(t -> store(t, rows, 0).call(stored -> publishCancelled(jobs, stored)),
                                (stored, t) -> afterCommit(jobs, stored, dispatched, sentAt, t));
                    })
                    .onFailure().invoke(failure -> jobs.forEach(j -> JobTracing.end(j.span(), failure)))
                    .map(stored -> stored.inserted().keySet());
        });
    }

    /** One transaction: store the jobs, publish the runs of those stored RUNNING, commit after Kafka's acks. */
    private Uni<Stored> storeAndDispatch(Transition t, List<Incoming> jobs, List<NewJob> rows,
                                         List<JobExecution> dispatched) {
        return store(t, rows, rows.size())
                .call(stored -> {
                    List<Uni<Void>> publishes = new ArrayList<>();
                    publishes.add(publishCancelled(jobs, stored));
                    for (Incoming job : jobs) {
                        if (stored.inserted().get(job.row().jobId()) != JobStatus.RUNNING) {
                            continue;
                        }
                        JobExecution attempt = firstAttempt(job.row(), stored.now());
                        Span span = t.trace(tracing.start("scheduler dispatch", Context.root().with(job.span()),
                                attempt.jobId(), attempt.attempt()));
                        dispatched.add(attempt);
                        publishes.add(writer.publishAttempt(attempt, job.event().payload(), Context.root().with(span)));
                    }
                    return Uni.join().all(publishes).andFailFast().replaceWithVoid();
                });
    }

    /**
     * Stores the jobs in {@code tx}, dispatching up to {@code dispatchAtMost}; a job that was not stored because a
     * row was there is either known already or had a cancel before it came: a second statement, run only then,
     * turns such cancels into their jobs, {@code CANCELLED}.
     */
    private Uni<Stored> store(Transition t, List<NewJob> rows, int dispatchAtMost) {
        SqlConnection tx = t.tx();
        // A job a limit applies to is stored PENDING and started by the dispatcher's limited claim, never here.
        int atMost = dispatcher.limitsEveryJob() ? 0 : dispatchAtMost;
        return keepOrphanCancels(t, rows)
                .chain(() -> {
                    // a job no live worker serves is stored PENDING, for the dispatcher to park until one comes; so
                    // is one of a queue with a limit, which only the limited claim starts
                    LiveWorkers live = workers.live();
                    return inserts.insertIfAbsent(tx, rows, atMost, maxInFlight, dispatcher.limitedTypes(), row -> {
                        String queue = JobControl.orDefaults(row.control()).queueOrDefault();
                        return dispatcher.limitsQueue(queue) || !live.serves(queue, row.jobType());
                    });
                })
                .chain(stored -> {
                    List<NewJob> present = rows.stream().filter(r -> !stored.inserted().containsKey(r.jobId()))
                            .toList();
                    if (present.isEmpty()) {
                        return Uni.createFrom().item(stored);
                    }
                    return inserts.fillEarlyCancels(tx, present).chain(cancelled -> {
                        if (cancelled.inserted().isEmpty()) {
                            return Uni.createFrom().item(stored);
                        }
                        Map<UUID, JobStatus> all = new HashMap<>(stored.inserted());
                        all.putAll(cancelled.inserted());
                        // A node job cancelled before it came (by its client) ends its node here.
                        return t.jobsEnded(cancelled.inserted())
                                .replaceWith(new Stored(cancelled.now(), all, stored.nextLater()));
                    });
                });
    }

    /**
     * The node jobs of the poll that must not run (their run has ended, or their node was cancelled or skipped) get a
     * kept cancel before they are stored, so that they are stored {@code CANCELLED} and never
     * dispatched, as a job whose cancel came first. One index probe, only for a poll with node jobs.
     */
    private Uni<Void> keepOrphanCancels(Transition t, List<NewJob> rows) {
        SqlConnection tx = t.tx();
        Map<UUID, NewJob> nodeJobs = new LinkedHashMap<>();
        Map<UUID, UUID> runOfJob = new LinkedHashMap<>();
        rows.stream().filter(r -> r.origin() != null && r.origin().workflowRunId() != null).forEach(r -> {
            nodeJobs.put(r.jobId(), r);
            runOfJob.put(r.jobId(), r.origin().workflowRunId());
        });
        if (nodeJobs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return workflows.orphans(tx, runOfJob).chain(orphans -> {
            if (orphans.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            List<EarlyCancel> cancels = orphans.stream().map(nodeJobs::get)
                    .map(r -> new EarlyCancel(r.jobId(), r.traceId(), r.createdAt())).toList();
            return inserts.insertEarlyCancels(tx, cancels).invoke(kept -> {
                if (!kept.isEmpty()) {
                    t.onCommit(() -> {
                        workflows.orphansStored(kept.size());
                        kept.forEach(id -> JobLog.info(LOG, id, nodeJobs.get(id).traceId(),
                                "node job of workflow run %s stored CANCELLED: the run has ended, or its node was"
                                        + " cancelled or skipped", nodeJobs.get(id).origin().workflowRunId()));
                    });
                }
            }).replaceWithVoid();
        });
    }

    /**
     * Publishes the {@code CANCELLED} status of each job stored cancelled (a cancel came first), to be acknowledged
     * before the commit, as every transition's; the job's own ingestion span is its parent.
     */
    private Uni<Void> publishCancelled(List<Incoming> jobs, Stored stored) {
        List<Uni<Void>> publishes = new ArrayList<>();
        for (Incoming job : jobs) {
            if (stored.inserted().get(job.row().jobId()) == JobStatus.CANCELLED) {
                publishes.add(writer.publish(cancelledAtIngestion(job.row(), stored.now()),
                        Context.root().with(job.span())));
            }
        }
        return publishes.isEmpty() ? Uni.createFrom().voidItem()
                : Uni.join().all(publishes).andFailFast().replaceWithVoid();
    }

    /** The row of a job stored CANCELLED: its PENDING row as stored at {@code now}, cancelled at {@code now}. */
    private static JobExecution cancelledAtIngestion(NewJob row, Instant now) {
        return JobStateMachine.cancel(row.pendingRow(now), now);
    }

    /** The row of a job stored RUNNING: its PENDING row as stored at {@code now}, dispatched at {@code now}. */
    private static JobExecution firstAttempt(NewJob row, Instant now) {
        return JobStateMachine.dispatch(row.pendingRow(now), now, now.plusMillis(row.leaseMillis()));
    }

    private void afterCommit(List<Incoming> jobs, Stored stored, List<JobExecution> dispatched, long sentAt,
                             Transition t) {
        jobs.forEach(j -> JobTracing.end(j.span(), null));
        boolean pending = false;
        for (Incoming job : jobs) {
            NewJob row = job.row();
            JobStatus status = stored.inserted().get(row.jobId());
            if (status != null) {
                metrics.ingested();
                pending |= status == JobStatus.PENDING;
                if (status == JobStatus.CANCELLED) {
                    metrics.cancelled();
                    JobLog.info(LOG, row.jobId(), row.traceId(), "job ingested CANCELLED: its cancel came first");
                    continue;
                }
                JobLog.debug(LOG, row.jobId(), row.traceId(), "job ingested %s (maxRetries=%d)", status,
                        row.maxRetries());
            } else {
                metrics.duplicateIngestion();
                JobLog.info(LOG, row.jobId(), row.traceId(), "job already known: redelivered event ignored");
            }
        }
        t.dispatched(List.copyOf(dispatched));
        if (pending) {
            t.wakeDispatcher();
        }
        t.wakeDispatcherAt(stored.nextLater(), stored.now(), sentAt);
    }

    private static boolean isLater(JobControl control, Instant now) {
        return control.runAt() != null && control.runAt().isAfter(now);
    }

    private String instruction(JobCreatedEvent event) {
        try {
            return mapper.writeValueAsString(event.payload());
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
