package dev.jobweaver.api.schedule;

import dev.jobweaver.api.job.JobApiConfig;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.job.store.SubmissionStore;
import dev.jobweaver.api.job.JobRequest;
import dev.jobweaver.api.job.JobSubmissionService;
import dev.jobweaver.api.workflow.WorkflowRunService;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.quarantine.Failures;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Makes the runs of schedules, one per tick of {@code schedule-fired} and one per trigger: a job from the schedule's
 * template, or a run of its workflow. The one place where a schedule becomes a job ({@link #make(SqlConnection, List)}),
 * so that whatever must happen in the same transaction as such a job (a notification of it) goes here.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A job is made exactly once per tick: its id is the tick's ({@code JobIds.forTick}), and the insert is
 *       idempotent on it, so a tick fired or consumed twice changes nothing the second time.</li>
 *   <li>The job goes the way of a submission: stored {@code PENDING} with its outbox row in one transaction, its
 *       {@code JobCreatedEvent} (with the tick as its {@code origin}) handed to the outbox relay after the commit.</li>
 *   <li>It is made from the definition the transaction reads, with the schedule's row locked for share: a change or
 *       delete of the schedule waits, and a tick of a schedule whose delete committed makes nothing.</li>
 *   <li>A workflow's run is started once per tick too: its id is the one the tick's job would have, and a start finds a
 *       run already stored under it. It is started after that transaction, in a Hibernate Reactive transaction of its
 *       own ({@link WorkflowRunService}), before {@link #make(List)} completes, so the tick's offset is committed only
 *       once the run is. A delete of the schedule that commits between the two may still let that one run start.</li>
 * </ul>
 * Runs on the reactive SQL client, on the caller's Vert.x context; never blocks.
 */
@ApplicationScoped
public class ScheduledJobs {

    private static final Logger LOG = Logger.getLogger(ScheduledJobs.class);

    /** What made a job; the {@code origin} tag of {@code jobweaver_schedule_jobs_total}. */
    public enum Kind {
        /** A tick that came on time. */
        TICK("tick"),
        /** The one catch-up job of {@code misfire: FIRE_ONCE} after downtime. */
        CATCH_UP("catch-up"),
        /** {@code POST /api/schedules/{id}/trigger}. */
        TRIGGER("trigger");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** The metric tag's value. */
        public String label() {
            return label;
        }
    }

    /**
     * One run of a schedule to make.
     *
     * @param jobId the job's id: derived from the tick for a tick, new for a trigger
     * @param scheduledFor the tick's time; a trigger's instant
     * @param parent the trace context the job continues: the request's for a trigger, the root for a tick
     * @param traceparent the W3C trace context of the tick's record or the trigger's request; null without one
     */
    public record Run(UUID scheduleId, UUID jobId, Instant scheduledFor, Kind kind, Context parent,
                      String traceparent) {
    }

    /** What became of a run: its job (committed), or why none was made. */
    public sealed interface Outcome {

        /** The run whose outcome this is. */
        Run run();

        /** The run's job was committed with its outbox row. */
        record Made(Run run, JobSubmissionService.Pending job) implements Outcome {

            /** The job's id. */
            public UUID jobId() {
                return job.job().id();
            }

            /** The job's trace id. */
            public String traceId() {
                return job.job().traceId();
            }
        }

        /** The run started a run of the schedule's workflow (or found the one it had started). */
        record RunStarted(Run run, WorkflowRunService.StartedRun started) implements Outcome {
        }

        /** The run made no job and started no workflow run. */
        record Ignored(Run run, ScheduleMetrics.Ignored reason) implements Outcome {
        }
    }

    /** What the jobs' transaction decided for a run: its outcome, or a workflow run to start once it has committed. */
    private sealed interface Step {

        /** The run's outcome, decided in the transaction. */
        record Decided(Outcome outcome) implements Step {
        }

        /** The run starts a run of {@code workflowId} after the commit. */
        record StartRun(Run run, UUID workflowId) implements Step {
        }
    }

    private final Pool pool;
    private final ScheduleTargets targets;
    private final SubmissionStore store;
    private final JobSubmissionService submissions;
    private final SchedulePublisher publisher;
    private final ScheduleMetrics metrics;
    private final ScheduleSubscribers subscribers;
    private final WorkflowRunService workflowRuns;
    private final ScheduleHistory history;
    private final int defaultRetryCount;
    private final Priority defaultPriority;

    public ScheduledJobs(Pool pool, ScheduleTargets targets, SubmissionStore store, JobSubmissionService submissions,
                         SchedulePublisher publisher, ScheduleMetrics metrics, ScheduleSubscribers subscribers,
                         WorkflowRunService workflowRuns, ScheduleHistory history, JobApiConfig config) {
        this.pool = pool;
        this.targets = targets;
        this.store = store;
        this.submissions = submissions;
        this.publisher = publisher;
        this.metrics = metrics;
        this.subscribers = subscribers;
        this.workflowRuns = workflowRuns;
        this.history = history;
        this.defaultRetryCount = config.validation().defaultRetryCount();
        this.defaultPriority = config.defaultPriority().schedule();
    }

    /**
     * Makes the jobs of {@code runs} in one transaction; after its commit hands their events to the outbox relay and
     * counts them, then starts the workflow runs of {@code runs}, one after the other. One outcome per run, in order.
     * Fails when the transaction or a start fails (a retry makes nothing twice); a permanent failure names no run, so
     * the caller splits the runs to find the one at fault.
     */
    public Uni<List<Outcome>> make(List<Run> runs) {
        if (runs.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.withTransaction(connection -> make(connection, runs)).invoke(this::committed)
                .chain(this::startRuns);
    }

    /** The outcome of each step, in order: each {@link Step.StartRun} started (or ignored), one after the other. */
    private Uni<List<Outcome>> startRuns(List<Step> steps) {
        return Multi.createFrom().iterable(steps)
                .onItem().transformToUniAndConcatenate(step -> switch (step) {
                    case Step.Decided decided -> Uni.createFrom().item(decided.outcome());
                    case Step.StartRun start -> startRun(start);
                })
                .collect().asList();
    }

    private Uni<Outcome> startRun(Step.StartRun start) {
        Run run = start.run();
        return workflowRuns.start(run.jobId(), start.workflowId(), null, run.parent(), run.traceparent(),
                        new WorkflowRunService.ScheduledBy(run.scheduleId(), run.scheduledFor()))
                .<Outcome>map(started -> {
                    if (started == null) {
                        LOG.warnf("schedule %s starts workflow %s, which does not exist any more: its run for %s"
                                + " starts nothing", run.scheduleId(), start.workflowId(), run.scheduledFor());
                        metrics.ignored(ScheduleMetrics.Ignored.NO_WORKFLOW);
                        return new Outcome.Ignored(run, ScheduleMetrics.Ignored.NO_WORKFLOW);
                    }
                    if (started.repeated()) {
                        metrics.ignored(ScheduleMetrics.Ignored.REPEATED);
                    } else {
                        metrics.made(run.kind(), 1);
                    }
                    LOG.debugf("workflow run %s started by schedule %s for %s", started.runId(), run.scheduleId(),
                            run.scheduledFor());
                    return new Outcome.RunStarted(run, started);
                })
                .call(outcome -> outcome instanceof Outcome.RunStarted started && !started.started().repeated()
                        ? countRun(run) : Uni.createFrom().voidItem());
    }

    /**
     * Counts a workflow run in its schedule's history. The run has started whatever happens here: a count that fails
     * is logged and the run's outcome stands.
     */
    private Uni<Void> countRun(Run run) {
        return history.count(run.scheduleId()).onFailure().recoverWithUni(e -> {
            LOG.warnf("the workflow run schedule %s made for %s is not in its history (firedCount, lastFiredAt): %s",
                    run.scheduleId(), run.scheduledFor(), Failures.describe(e));
            return Uni.createFrom().voidItem();
        });
    }

    /** How many of the jobs just inserted ({@code stored}) each schedule made. */
    private static Map<UUID, Long> madePerSchedule(Map<UUID, Run> byJob, Set<UUID> stored) {
        Map<UUID, Long> made = new HashMap<>();
        for (UUID jobId : stored) {
            made.merge(byJob.get(jobId).scheduleId(), 1L, Long::sum);
        }
        return made;
    }

    /**
     * The jobs of {@code runs}, made on {@code connection} within the caller's transaction: reads the schedules
     * (locked for share), makes each live schedule's job from its template and inserts the jobs not made before. One
     * step per run, in order; the caller hands the {@link Outcome.Made} jobs to the relay after its commit
     * ({@link #committed}) and then starts the workflow runs ({@link #startRuns}).
     */
    private Uni<List<Step>> make(SqlConnection connection, List<Run> runs) {
        Map<UUID, Run> byJob = new LinkedHashMap<>();
        runs.forEach(run -> byJob.putIfAbsent(run.jobId(), run));
        Set<UUID> scheduleIds = new HashSet<>();
        runs.forEach(run -> scheduleIds.add(run.scheduleId()));
        return targets.find(connection, scheduleIds).chain(found -> {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
            Map<UUID, JobSubmissionService.Pending> jobs = new LinkedHashMap<>();
            Map<UUID, ScheduleMetrics.Ignored> ignored = new HashMap<>();
            Map<UUID, UUID> workflows = new HashMap<>();
            for (Run run : byJob.values()) {
                ScheduleTargets.Target target = found.get(run.scheduleId());
                if (target == null || target.deleted()) {
                    ignored.put(run.jobId(), ScheduleMetrics.Ignored.NO_SCHEDULE);
                } else if (target.paused() && run.kind() != Kind.TRIGGER) {
                    // fired before the scheduler saw the pause; a trigger is an explicit run and passes
                    ignored.put(run.jobId(), ScheduleMetrics.Ignored.PAUSED);
                } else {
                    switch (ScheduleTarget.of(target.jobJson(), target.workflowId())) {
                        case ScheduleTarget.Job job -> jobs.put(run.jobId(), prepare(run, job, now));
                        case ScheduleTarget.Workflow workflow -> workflows.put(run.jobId(), workflow.workflowId());
                    }
                }
            }
            Uni<Set<UUID>> inserted = jobs.isEmpty() ? Uni.createFrom().item(Set.of())
                    : store.insertOnce(connection, jobs.values().stream().map(JobSubmissionService.Pending::job)
                            .toList(), submissions.instance());
            return inserted.call(stored -> scheduledDeliveries(connection, jobs, stored))
                    .call(stored -> history.count(connection, madePerSchedule(byJob, stored))).map(stored -> {
                Set<UUID> unmade = new HashSet<>(stored);
                List<Step> steps = new ArrayList<>(runs.size());
                for (Run run : runs) {
                    JobSubmissionService.Pending job = jobs.get(run.jobId());
                    UUID workflowId = workflows.get(run.jobId());
                    if (job != null && unmade.remove(run.jobId())) {
                        steps.add(new Step.Decided(new Outcome.Made(run, job)));
                    } else if (workflowId != null) {
                        steps.add(new Step.StartRun(run, workflowId));
                    } else {
                        steps.add(new Step.Decided(new Outcome.Ignored(run, ignored.getOrDefault(run.jobId(),
                                ScheduleMetrics.Ignored.REPEATED))));
                    }
                }
                return steps;
            });
        });
    }

    /**
     * The SCHEDULED deliveries of the jobs just inserted ({@code stored}), in their transaction, for the subscribers of
     * their schedule or their job type; remembers whether there were any, for the wake-up after the commit.
     */
    private Uni<Integer> scheduledDeliveries(SqlConnection connection, Map<UUID, JobSubmissionService.Pending> jobs,
                                             Set<UUID> stored) {
        List<SubmissionStore.NewJob> made = new ArrayList<>(stored.size());
        for (UUID id : stored) {
            made.add(jobs.get(id).job());
        }
        return made.isEmpty() ? Uni.createFrom().item(0) : subscribers.jobsMade(connection, made);
    }

    /** The job of {@code run} from its schedule's template, ready to store. */
    private JobSubmissionService.Pending prepare(Run run, ScheduleTarget.Job template, Instant now) {
        JobRequest request;
        try {
            request = JsonColumns.mapper().readValue(template.json(), JobRequest.class);
        } catch (IOException e) {
            // validated when stored: a row no job can be made from is a fault of its own, not a passing one
            throw new IllegalStateException("the job template of schedule " + run.scheduleId() + " cannot be read: "
                    + e.getMessage(), e);
        }
        int maxRetries = request.maxRetryCount() != null ? request.maxRetryCount() : defaultRetryCount;
        return submissions.prepareScheduled(run.jobId(), request.jobType(), request.payload(), maxRetries,
                JobControl.withDefaultPriority(request.control(now), defaultPriority), now,
                new JobOrigin(run.scheduleId(), run.scheduledFor()), run.parent(),
                run.traceparent());
    }

    /**
     * After the commit: hands the made jobs' events to the outbox relay, counts every outcome, and publishes a
     * tombstone for a schedule the API does not have (a record of the compacted topic a delete's tombstone overtook),
     * so that the scheduler forgets it.
     */
    private void committed(List<Step> steps) {
        List<JobSubmissionService.Pending> made = new ArrayList<>();
        Map<Kind, Integer> counts = new java.util.EnumMap<>(Kind.class);
        Set<UUID> unknown = new HashSet<>();
        for (Step step : steps) {
            // a workflow run (Step.StartRun) is counted once started
            if (step instanceof Step.Decided(Outcome.Made m)) {
                made.add(m.job());
                counts.merge(m.run().kind(), 1, Integer::sum);
                LOG.debugf("job %s made by schedule %s for %s", m.jobId(), m.run().scheduleId(),
                        m.run().scheduledFor());
            } else if (step instanceof Step.Decided(Outcome.Ignored i)) {
                metrics.ignored(i.reason());
                if (i.reason() == ScheduleMetrics.Ignored.NO_SCHEDULE && i.run().kind() != Kind.TRIGGER) {
                    unknown.add(i.run().scheduleId());
                }
            }
        }
        submissions.relayCommitted(made);
        if (!made.isEmpty()) {
            subscribers.jobsCommitted(); // SCHEDULED deliveries may have been made with the jobs
        }
        counts.forEach(metrics::made);
        unknown.forEach(publisher::tombstoneLater);
    }
}
