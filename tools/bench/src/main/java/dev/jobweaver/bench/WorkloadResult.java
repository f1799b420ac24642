package dev.jobweaver.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Everything one workload measured.
 *
 * @param workload which
 * @param label its name in reports: {@code burst c=16} when the burst ran at several concurrencies, else the
 *              workload's name ({@link BenchOptions.Run})
 * @param concurrency requests in flight at most while it submitted; 0 for steady (open loop)
 * @param available false when the platform cannot run it (then only {@code note} is meaningful)
 * @param note why it is unavailable, or remarks on the run; empty when none
 * @param submission the submission side
 * @param throughput completed jobs / (last completion − first submit), jobs per second
 * @param visibleThroughput completed jobs / (last time the API showed a completion − first submit): what a client
 *     polling {@code GET /api/jobs/{id}} experiences
 * @param noopThroughput the same over the no-op jobs only, when the workload mixes kinds; NaN otherwise
 * @param accept milliseconds from sending to the 202
 * @param toStart milliseconds from submit to the first attempt's start
 * @param toFinish milliseconds from submit to the terminal status
 * @param finishToVisible milliseconds from the worker's finish to COMPLETED visible in the API, over the COMPLETED
 *     jobs the {@link FreshnessProbe} followed: status freshness
 * @param stages where the time goes, stage by stage, over the jobs that ran once
 * @param correctness whether every accepted job ended as expected, exactly once
 * @param completionsPerSecond completed jobs per second after the first submit
 * @param jobs the raw records
 * @param replicaShare how the work spread over the replicas of each service ({@link ReplicaShare}); empty when not
 *     read
 * @param byPriority submit-to-start per priority level, over the jobs sent with a priority; empty when none was
 * @param lateness how late the jobs sent with a delay started; {@link Lateness#NONE} when none was
 * @param idle the delayed-idle measurement; null for every other workload
 * @param cancels the cancel workload's figures; {@link Cancels#NONE} for every other workload
 * @param notifications the notify workload's figures; {@link Notifications#NONE} for every other workload
 * @param schedules the schedules workload's figures; null for every other workload
 * @param workflows the workflow workload's figures; null for every other workload
 * @param limits the limits workload's phase under a limit that binds; null for every other workload
 * @param mixed the mixed workload's features; null for every other workload
 * @param queues the queues workload's figures per queue; null for every other workload
 * @param purge the purge workload's figures (seed, purge per database); null for every other workload
 */
public record WorkloadResult(Workload workload, String label, int concurrency, boolean available, String note,
                             Submission submission, double throughput, double visibleThroughput,
                             double noopThroughput, Percentiles accept, Percentiles toStart, Percentiles toFinish,
                             Percentiles finishToVisible, List<Stages.Stage> stages, Correctness correctness,
                             int[] completionsPerSecond, List<JobRecord> jobs,
                             List<ReplicaShare.Row> replicaShare, List<PriorityLevels.Level> byPriority,
                             Lateness lateness, IdleCpu idle, Cancels cancels, Notifications notifications,
                             ScheduleTicks schedules, WorkflowRuns workflows, TenantLimits limits,
                             MixedFeatures mixed, QueueRuns queues, PurgeRun purge) {

    private static final Submission NONE_SUBMITTED = new Submission(0, 0, 0, null, null, 0, 0);
    private static final Correctness NO_JOBS = new Correctness(0, 0, 0, 0, 0, List.of());

    /** A workload the platform cannot run, with the reason. */
    public static WorkloadResult unavailable(Workload workload, String reason) {
        return unavailable(new BenchOptions.Run(workload, 0, workload.cliName()), reason);
    }

    /** A run the platform cannot do, with the reason. */
    public static WorkloadResult unavailable(BenchOptions.Run run, String reason) {
        return withoutJobs(run, false, reason, NO_JOBS, null, null, null);
    }

    /** The delayed-idle run: no job, only the CPU it measured. */
    public static WorkloadResult idle(BenchOptions.Run run, IdleCpu idle, String note) {
        return withoutJobs(run, true, note == null ? "" : note, NO_JOBS, idle, null, null);
    }

    /**
     * The schedules run: no submitted job, only its ticks, whose correctness is theirs (every tick due in the window
     * exactly one job).
     */
    public static WorkloadResult ticked(BenchOptions.Run run, ScheduleTicks ticks, String note) {
        return withoutJobs(run, true, note == null ? "" : note, ticks.correctness(), null, ticks, null);
    }

    /**
     * The workflow run: no submitted job of its own, only its runs, whose correctness is theirs (every run COMPLETED,
     * every node's job executed once).
     */
    public static WorkloadResult flowed(BenchOptions.Run run, WorkflowRuns workflows, String note) {
        return withoutJobs(run, true, note == null ? "" : note, workflows.correctness(), null, null, workflows);
    }

    /** A run with no submitted job to figure: every job figure empty, at most one of its own measurements. */
    private static WorkloadResult withoutJobs(BenchOptions.Run run, boolean available, String note,
                                              Correctness correctness, IdleCpu idle, ScheduleTicks schedules,
                                              WorkflowRuns workflows) {
        return new WorkloadResult(run.workload(), run.label(), run.concurrency(), available, note, NONE_SUBMITTED,
                Double.NaN, Double.NaN, Double.NaN, Percentiles.EMPTY, Percentiles.EMPTY, Percentiles.EMPTY,
                Percentiles.EMPTY, List.of(), correctness, new int[0], List.of(), List.of(), List.of(), Lateness.NONE,
                idle, Cancels.NONE, Notifications.NONE, schedules, workflows, null, null, null, null);
    }

    /**
     * Whether this is a run of submitted jobs, whose figures and correctness mean something (not an idle measurement,
     * nor the schedules' ticks, nor the workflow runs).
     */
    public boolean ranJobs() {
        return available && idle == null && schedules == null && workflows == null;
    }

    /** Computes the figures of a finished workload, named after it, from its raw records. */
    public static WorkloadResult of(Workload workload, Submission submission, List<JobRecord> jobs, String note) {
        return of(new BenchOptions.Run(workload, 0, workload.cliName()), submission, jobs, note);
    }

    /** Computes the figures of a finished run from its raw records. */
    public static WorkloadResult of(BenchOptions.Run run, Submission submission, List<JobRecord> jobs, String note) {
        Instant firstSubmit = jobs.stream().map(JobRecord::submittedAt).filter(Objects::nonNull)
                .min(Comparator.naturalOrder()).orElse(submission.startedAt());
        List<JobRecord> completed = jobs.stream().filter(JobRecord::completed).toList();
        boolean mixed = jobs.stream().anyMatch(j -> j.kind() != JobKind.NOOP);
        double noop = mixed
                ? throughput(completed.stream().filter(j -> j.kind() == JobKind.NOOP).toList(), firstSubmit,
                        JobRecord::finishedAt)
                : Double.NaN;
        List<Instant> finishes = new ArrayList<>();
        completed.forEach(j -> {
            if (j.finishedAt() != null) {
                finishes.add(j.finishedAt());
            }
        });
        return new WorkloadResult(run.workload(), run.label(), run.concurrency(), true, note == null ? "" : note,
                submission,
                throughput(completed, firstSubmit, JobRecord::finishedAt),
                throughput(completed, firstSubmit, JobRecord::visibleAt), noop,
                Percentiles.of(values(jobs, JobRecord::acceptMs)),
                Percentiles.of(values(jobs, JobRecord::submitToStartMs)),
                Percentiles.of(values(completed, JobRecord::submitToFinishMs)),
                Percentiles.of(values(completed, JobRecord::finishToVisibleMs)),
                Stages.of(jobs),
                Correctness.check(jobs),
                firstSubmit == null ? new int[0] : Timeline.perSecond(finishes, firstSubmit),
                List.copyOf(jobs), List.of(), PriorityLevels.of(jobs), Lateness.of(jobs), null, Cancels.NONE,
                Notifications.NONE, null, null, null, null, null, null);
    }

    /**
     * The cancel run: the figures of {@link #of} from its raw records, with the cancel figures of {@code cancelled}
     * and their correctness (every job CANCELLED, not COMPLETED). No stages (no job completed) and no lateness (the
     * waiting jobs' delay is what keeps them from running, not a start to time).
     */
    public static WorkloadResult cancelled(BenchOptions.Run run, Submission submission, List<JobRecord> jobs,
                                           List<Cancels.Job> cancelled, String note) {
        WorkloadResult r = of(run, submission, jobs, note);
        return new WorkloadResult(r.workload, r.label, r.concurrency, true, r.note, submission, r.throughput,
                r.visibleThroughput, r.noopThroughput, r.accept, r.toStart, r.toFinish, r.finishToVisible, List.of(),
                Cancels.correctness(cancelled), r.completionsPerSecond, r.jobs, List.of(), r.byPriority, Lateness.NONE,
                null, Cancels.of(cancelled), Notifications.NONE, null, null, null, null, null, null);
    }

    /**
     * The notify run: the figures of {@link #of} from its raw records (submit-to-start includes the common start's
     * lead), with the notification figures and their correctness: every job COMPLETED and its signed webhook
     * received. No lateness: the delay only holds the jobs until every subscription exists.
     */
    public static WorkloadResult notified(BenchOptions.Run run, Submission submission, List<JobRecord> jobs,
                                          Notifications notifications, Correctness correctness, String note) {
        WorkloadResult r = of(run, submission, jobs, note);
        return new WorkloadResult(r.workload, r.label, r.concurrency, true, r.note, submission, r.throughput,
                r.visibleThroughput, r.noopThroughput, r.accept, r.toStart, r.toFinish, r.finishToVisible, r.stages,
                correctness, r.completionsPerSecond, r.jobs, List.of(), r.byPriority, Lateness.NONE, null,
                Cancels.NONE, notifications, null, null, null, null, null, null);
    }

    /** This result with {@code rows} as its replica share. */
    public WorkloadResult withReplicaShare(List<ReplicaShare.Row> rows) {
        return new WorkloadResult(workload, label, concurrency, available, note, submission, throughput,
                visibleThroughput, noopThroughput, accept, toStart, toFinish, finishToVisible, stages, correctness,
                completionsPerSecond, jobs, List.copyOf(rows), byPriority, lateness, idle, cancels, notifications,
                schedules, workflows, limits, mixed, queues, purge);
    }

    /**
     * This result of the limits workload's burst with the figures of its phase under a limit that binds, and
     * {@code note}; its correctness covers the jobs of both phases.
     */
    public WorkloadResult withLimits(TenantLimits figures, String note) {
        return new WorkloadResult(workload, label, concurrency, available, note == null ? "" : note, submission,
                throughput, visibleThroughput, noopThroughput, accept, toStart, toFinish, finishToVisible, stages,
                correctness.plus(figures.correctness()), completionsPerSecond, jobs, replicaShare, byPriority,
                lateness, idle, cancels, notifications, schedules, workflows, figures, mixed, queues, purge);
    }

    /**
     * This result of the mixed workload's plain jobs with the figures of its features, and {@code note}; its
     * correctness covers the features too.
     */
    public WorkloadResult withMixed(MixedFeatures figures, String note) {
        return new WorkloadResult(workload, label, concurrency, available, note == null ? "" : note, submission,
                throughput, visibleThroughput, noopThroughput, accept, toStart, toFinish, finishToVisible, stages,
                correctness.plus(figures.correctness()), completionsPerSecond, jobs, replicaShare, byPriority,
                lateness, idle, cancels, notifications, schedules, workflows, limits, figures, queues, purge);
    }

    /**
     * This result of the queues workload's jobs with the figures of each queue, and {@code note}; its correctness
     * covers every execution row judged by the worker that wrote it.
     */
    public WorkloadResult withQueues(QueueRuns figures, String note) {
        return new WorkloadResult(workload, label, concurrency, available, note == null ? "" : note, submission,
                throughput, visibleThroughput, noopThroughput, accept, toStart, toFinish, finishToVisible, stages,
                correctness.plus(figures.correctness()), completionsPerSecond, jobs, replicaShare, byPriority,
                lateness, idle, cancels, notifications, schedules, workflows, limits, mixed, figures, purge);
    }

    /**
     * This result of the purge workload's steady jobs with the purge's figures, and {@code note}; its correctness also
     * counts the other tenants' rows the purge removed.
     */
    public WorkloadResult withPurge(PurgeRun figures, String note) {
        return new WorkloadResult(workload, label, concurrency, available, note == null ? "" : note, submission,
                throughput, visibleThroughput, noopThroughput, accept, toStart, toFinish, finishToVisible, stages,
                correctness.plus(figures.correctness()), completionsPerSecond, jobs, replicaShare, byPriority,
                lateness, idle, cancels, notifications, schedules, workflows, limits, mixed, queues, figures);
    }

    /** The run's name in file names: {@code burst-c16}. */
    public String fileStem() {
        return new BenchOptions.Run(workload, concurrency, label).fileStem();
    }

    /** When the first job was submitted; null when none was. */
    public Instant firstSubmit() {
        return jobs.stream().map(JobRecord::submittedAt).filter(Objects::nonNull).min(Comparator.naturalOrder())
                .orElse(null);
    }

    /** When the last completed job finished, the end of the throughput window; null when none completed. */
    public Instant lastCompletion() {
        return jobs.stream().filter(JobRecord::completed).map(JobRecord::finishedAt).filter(Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
    }

    /** Completed jobs per second from {@code firstSubmit} to the latest {@code end}; NaN when nothing completed. */
    static double throughput(List<JobRecord> completed, Instant firstSubmit,
                             java.util.function.Function<JobRecord, Instant> end) {
        Instant last = completed.stream().map(end).filter(Objects::nonNull)
                .max(Comparator.naturalOrder()).orElse(null);
        if (last == null || firstSubmit == null) {
            return Double.NaN;
        }
        double seconds = JobRecord.millisBetween(firstSubmit, last) / 1000.0;
        return seconds <= 0 ? Double.NaN : completed.size() / seconds;
    }

    private static double[] values(List<JobRecord> jobs, java.util.function.ToDoubleFunction<JobRecord> f) {
        return jobs.stream().mapToDouble(f).filter(v -> !Double.isNaN(v)).toArray();
    }
}
