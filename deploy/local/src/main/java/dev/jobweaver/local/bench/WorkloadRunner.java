package dev.jobweaver.local.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/** Runs one workload: submits, watches for completion, reads the recorded timestamps, computes the figures. */
public final class WorkloadRunner {

    /** Share of sleeper jobs in the sleepers workload. */
    static final double SLEEPER_FRACTION = 0.05;
    /** Share of flaky jobs in the retries workload. */
    static final double FLAKY_FRACTION = 0.10;

    /** A flaky job allowed one retry only: if "times" is ignored it ends FAILED after one backoff, not after three. */
    static final String PROBE = JobKind.FLAKY.body().replace("\"maxRetryCount\":3", "\"maxRetryCount\":1");

    /** The least time the probe may take: one retry backoff (5 s and jitter by default) and two runs. */
    static final Duration PROBE_WAIT = Duration.ofSeconds(60);

    /** The delay of the delayed workload's probe job: short, since the probe only asks whether the field is taken. */
    static final long PROBE_DELAY_MS = 100;

    /** How far ahead the delayed-idle rows are due: far beyond the measurement, so none is ever dispatched. */
    static final Duration IDLE_DUE_IN = Duration.ofDays(1);

    /** A pause before each idle window, so the work of what came before (outcomes, inserts) has ended. */
    static final Duration IDLE_QUIET = Duration.ofSeconds(3);

    /**
     * How long past the last waiting job's due time the cancel workload still waits before it reads the worker's
     * rows: a cancelled job the scheduler dispatched at its due time anyway has a run by then.
     */
    static final Duration AFTER_DUE = Duration.ofSeconds(5);

    /** Period of the cancel workload's lookups of runs the worker started, milliseconds. */
    static final long RUNNING_POLL_MS = 10;

    /** The error code of the API's 404 for an unknown job: a 404 without it means the path itself is unknown. */
    static final String JOB_NOT_FOUND = "API.JOB_NOT_FOUND";

    private final BenchOptions options;
    private final ApiClient api;
    private final PlatformDb db;
    private final FreshnessProbe.TerminalCheck probeDb;
    private final PlatformState platform;
    private final Supplier<ReplicaShare.Snapshot> counters;
    private final PrintStream out;
    private final boolean terminal;

    /**
     * A runner with these options, against this API and database, reporting progress on {@code out}; the freshness
     * probe looks jobs up through {@code probeDb}, apart from {@code db}, and {@code counters} reads the counters of
     * every instance of {@code platform} before and after each measured run.
     */
    public WorkloadRunner(BenchOptions options, ApiClient api, PlatformDb db, FreshnessProbe.TerminalCheck probeDb,
                          PlatformState platform, Supplier<ReplicaShare.Snapshot> counters, PrintStream out,
                          boolean terminal) {
        this.options = options;
        this.api = api;
        this.db = db;
        this.probeDb = probeDb;
        this.platform = platform;
        this.counters = counters;
        this.out = out;
        this.terminal = terminal;
    }

    /** Does {@code run}. */
    public WorkloadResult run(BenchOptions.Run run) {
        return switch (run.workload()) {
            case BURST -> closedLoop(run, i -> JobKind.NOOP, "");
            case STEADY -> openLoop(run);
            case SLEEPERS -> closedLoop(run, i -> JobKind.mix(i, SLEEPER_FRACTION, JobKind.SLEEPER), "");
            case RETRIES -> retries(run);
            case PRIORITIES -> priorities(run);
            case DELAYED -> delayed(run);
            case DELAYED_IDLE -> delayedIdle(run);
            case CANCEL -> cancel(run);
        };
    }

    /**
     * Runs {@code count} no-op jobs at the main concurrency and forgets them, once all have ended (JIT and
     * connection warm-up, {@link WarmUp}).
     */
    public void warmUp(int count) {
        closedLoop("warm-up", count, options.concurrency(), i -> JobKind.NOOP, false);
    }

    private WorkloadResult closedLoop(BenchOptions.Run run, IntFunction<JobKind> kinds, String note) {
        Observed done = closedLoop(run.label(), options.jobsAt(run.concurrency()), run.concurrency(), kinds, true);
        return WorkloadResult.of(run, done.submission(), records(done),
                note(done.submission(), workerNote(note, done))).withReplicaShare(share(done));
    }

    /**
     * A run's submission, the jobs it got accepted, the watcher that saw them finish and, for a measured run, the
     * probe that timed when some of them became visible and the instances' counters before and after.
     */
    private record Observed(Submission submission, List<Accepted> accepted, CompletionWatcher watcher,
                            FreshnessProbe probe, ReplicaShare.Snapshot before, ReplicaShare.Snapshot after) {
    }

    /** How {@code run}'s work spread over the replicas. */
    private List<ReplicaShare.Row> share(Observed run) {
        return ReplicaShare.of(platform, run.before(), run.after(),
                db.executionsByWorker(run.accepted().stream().map(Accepted::jobId).toList()));
    }

    /** Every accepted job of {@code run} as the platform recorded it, with when it was seen terminal. */
    private List<JobRecord> records(Observed run) {
        List<JobRecord> records = run.watcher().withVisibility(db.records(run.accepted()));
        return run.probe() == null ? records : run.probe().withProbedVisibility(records);
    }

    /**
     * Sends {@code count} jobs with {@code concurrency} in flight, through a client of as many connections, and waits
     * until every accepted job ended (or the stall timeout).
     */
    private Observed closedLoop(String label, int count, int concurrency, IntFunction<JobKind> kinds,
                                boolean measured) {
        return closedLoop(label, count, concurrency, kinds, i -> Control.NONE, measured);
    }

    /** {@link #closedLoop(String, int, int, IntFunction, boolean)}, job {@code i} sent with {@code controls(i)}. */
    private Observed closedLoop(String label, int count, int concurrency, IntFunction<JobKind> kinds,
                                IntFunction<Control> controls, boolean measured) {
        try (ApiClient client = new ApiClient(api.baseUrl(), concurrency)) {
            return observe(label, count, measured, options.timeout(), (sink, progress) -> new Submitter(client)
                    .burst(count, concurrency, kinds, controls, sink, progress));
        }
    }

    /** How a run sends its jobs, handing each accepted one to the sink. */
    @FunctionalInterface
    private interface Sending {
        Submission send(Consumer<Accepted> sink, Progress progress);
    }

    /**
     * Sends {@code count} jobs by {@code sending} and waits until every accepted job ended (or {@code stallTimeout}
     * without a completion after the last send); a measured run also has its jobs' freshness timed.
     */
    private Observed observe(String label, int count, boolean measured, Duration stallTimeout, Sending sending) {
        ReplicaShare.Snapshot before = measured ? counters.get() : ReplicaShare.Snapshot.NONE;
        Progress progress = new Progress(label, count, out, terminal);
        CompletionWatcher watcher = new CompletionWatcher(db, progress, stallTimeout).start();
        FreshnessProbe probe = measured ? new FreshnessProbe(probeDb, InstantSource.system()).start() : null;
        Consumer<Accepted> sink = probe == null ? watcher::add : job -> {
            watcher.add(job);
            probe.offer(job);
        };
        Submission submission;
        List<Accepted> accepted;
        try (progress) {
            try {
                try {
                    submission = sending.send(sink, progress);
                } finally {
                    watcher.submissionDone();
                }
                accepted = watcher.await();
            } finally {
                if (probe != null) {
                    probe.stop();
                }
            }
        }
        ReplicaShare.Snapshot after = measured ? counters.get() : ReplicaShare.Snapshot.NONE;
        return new Observed(submission, accepted, watcher, probe, before, after);
    }

    private WorkloadResult openLoop(BenchOptions.Run measured) {
        if (!options.settle().isZero()) {
            openLoop("steady warm-up", new RateSchedule(options.rate(), options.settle()), false);
        }
        RateSchedule schedule = new RateSchedule(options.rate(), options.duration());
        Observed run = openLoop(measured.label(), schedule, true);
        String note = String.format(java.util.Locale.ROOT, "offered %s/s for %s s after %s s unreported; largest send "
                        + "delay behind schedule %s ms", Targets.fmt(options.rate()),
                Targets.fmt(options.duration().toMillis() / 1000.0), Targets.fmt(options.settle().toMillis() / 1000.0),
                Targets.fmt(run.submission().maxSendLagMs()));
        return WorkloadResult.of(measured, run.submission(), records(run),
                note(run.submission(), workerNote(note, run))).withReplicaShare(share(run));
    }

    /** Offers {@code schedule}'s load and waits until every accepted job ended (or the stall timeout). */
    private Observed openLoop(String label, RateSchedule schedule, boolean measured) {
        return observe(label, schedule.count(), measured, options.timeout(),
                (sink, progress) -> new Submitter(api).openLoop(schedule, sink, progress));
    }

    private WorkloadResult retries(BenchOptions.Run run) {
        String unavailable = probeRetries();
        if (unavailable != null) {
            return WorkloadResult.unavailable(run, unavailable);
        }
        return closedLoop(run, i -> JobKind.mix(i, FLAKY_FRACTION, JobKind.FLAKY),
                "throughput includes the scheduler's retry backoff (jobweaver.scheduler.backoff.base)");
    }

    /**
     * Whether the platform honours {@code FAIL} with {@code times}: one flaky job must be accepted and end COMPLETED
     * after exactly 2 attempts. Returns why not, or null when it does.
     */
    String probeRetries() {
        out.println("retries: probing FAIL with \"times\" (one job, waits for its retry backoff)...");
        ApiClient.Answer answer = api.submit(PROBE).join();
        if (answer.status() == 400) {
            return "the API rejects the FAIL step's \"times\" field (400: " + shorten(answer.body())
                    + "); the platform does not support flaky jobs yet";
        }
        if (!answer.accepted()) {
            return "the probe job was not accepted: " + answer.status() + " " + shorten(answer.body());
        }
        UUID id = answer.jobId();
        Duration wait = options.timeout().compareTo(PROBE_WAIT) > 0 ? options.timeout() : PROBE_WAIT;
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            Set<UUID> done = db.terminal(List.of(id));
            if (!done.isEmpty()) {
                JobRecord job = db.records(List.of(new Accepted(id, JobKind.FLAKY, java.time.Instant.now(), 0)))
                        .getFirst();
                if (job.completed() && job.attempts() == 2) {
                    return null;
                }
                return "the API accepted \"times\" but the probe job " + id + " ended " + job.status() + " after "
                        + job.attempts() + " attempt(s), not COMPLETED after 2: the field is ignored (not yet "
                        + "supported by the worker?)";
            }
            sleep(250);
        }
        return "the probe job " + id + " did not finish within " + wait.toSeconds() + " s";
    }

    private WorkloadResult priorities(BenchOptions.Run run) {
        String unavailable = probeControl(run.label(), "\"priority\"", Control.of(Priority.HIGH));
        if (unavailable != null) {
            return WorkloadResult.unavailable(run, unavailable);
        }
        Observed done = closedLoop(run.label(), options.jobsAt(run.concurrency()), run.concurrency(),
                i -> JobKind.NOOP, i -> Control.of(Control.mixed(i)), true);
        List<JobRecord> records = db.withRecordedControl(records(done));
        String note = "60% HIGH, 30% NORMAL, 10% LOW, interleaved; start = the worker's started_at";
        return WorkloadResult.of(run, done.submission(), records,
                note(done.submission(), workerNote(controlNote(note, records), done))).withReplicaShare(share(done));
    }

    private WorkloadResult delayed(BenchOptions.Run run) {
        String unavailable = probeControl(run.label(), "\"delayMs\"", Control.delayed(PROBE_DELAY_MS));
        if (unavailable != null) {
            return WorkloadResult.unavailable(run, unavailable);
        }
        RateSchedule schedule = options.delayedSchedule();
        long min = options.minDelay().toMillis();
        long max = options.maxDelay().toMillis();
        // a job may not end before its delay has passed: the stall clock only counts from its due time on
        Observed done = observe(run.label(), schedule.count(), true, options.timeout().plus(options.maxDelay()),
                (sink, progress) -> new Submitter(api).openLoop(schedule,
                        i -> Control.delayed(Control.spreadDelay(i, min, max)), sink, progress));
        List<JobRecord> records = db.withRecordedControl(records(done));
        String note = String.format(java.util.Locale.ROOT, "sent %s/s for %s s, delayMs spread evenly over %d..%d ms; "
                        + "submit-to-start includes the delay; lateness = started_at - due time, early = more than %s "
                        + "ms before it; %s; largest send delay behind schedule %s ms",
                Targets.fmt(schedule.rate()), Targets.fmt(options.delayedOver().toMillis() / 1000.0), min, max,
                Targets.fmt(Lateness.EARLY_TOLERANCE_MS), Lateness.of(records).dueSource(),
                Targets.fmt(done.submission().maxSendLagMs()));
        return WorkloadResult.of(run, done.submission(), records,
                note(done.submission(), workerNote(controlNote(note, records), done))).withReplicaShare(share(done));
    }

    /**
     * {@code note} with what the platform did not record of the job control the jobs were sent with: a column it has
     * not got, a priority it stored otherwise, a delay without a start time.
     */
    private String controlNote(String note, List<JobRecord> records) {
        List<String> parts = new java.util.ArrayList<>(List.of(note));
        if (db.controlProblem() != null) {
            parts.add("job control not read back: " + db.controlProblem());
        }
        long otherwise = records.stream().filter(r -> r.control().priority() != null && r.recordedPriority() != null
                && r.recordedPriority() != r.control().priority()).count();
        if (otherwise > 0) {
            JobRecord example = records.stream().filter(r -> r.control().priority() != null
                    && r.recordedPriority() != null && r.recordedPriority() != r.control().priority()).findFirst()
                    .orElseThrow();
            parts.add("the scheduler recorded " + otherwise + " jobs under another priority than they were sent with "
                    + "(e.g. " + example.jobId() + " sent " + example.control().priority() + ", recorded "
                    + example.recordedPriority() + "): is \"priority\" carried to job_executions?");
        }
        long delayed = records.stream().filter(r -> r.control().hasDelay() && r.status() != null).count();
        long withoutRunAt = records.stream().filter(r -> r.control().hasDelay() && r.status() != null
                && r.runAt() == null).count();
        if (withoutRunAt > 0 && db.controlProblem() == null) {
            parts.add(withoutRunAt + " of " + delayed + " delayed jobs have no run_at in jobweaver_api.jobs: is "
                    + "\"delayMs\" resolved at acceptance?");
        }
        return String.join("; ", parts);
    }

    /**
     * Whether the platform takes a job-control {@code field}: one no-op job sent with {@code control} must be
     * accepted and end COMPLETED. Returns why not, or null when it does, so that a platform without job control
     * reports the workload unavailable at once instead of refusing thousands of jobs.
     */
    String probeControl(String label, String field, Control control) {
        out.println(label + ": probing " + field + " (one no-op job)...");
        ApiClient.Answer answer = api.submit(control.body(JobKind.NOOP)).join();
        if (answer.status() == 400) {
            return "the API rejects " + field + " (400: " + shorten(answer.body()) + "); the platform does not "
                    + "support it yet";
        }
        if (!answer.accepted()) {
            return "the probe job with " + field + " was not accepted: " + answer.status() + " "
                    + shorten(answer.body());
        }
        UUID id = answer.jobId();
        Duration wait = options.timeout();
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (!db.terminal(List.of(id)).isEmpty()) {
                JobRecord job = db.records(List.of(new Accepted(id, JobKind.NOOP, java.time.Instant.now(), 0)))
                        .getFirst();
                return job.completed() ? null : "the probe job " + id + " with " + field + " ended " + job.status()
                        + ", not COMPLETED";
            }
            sleep(100);
        }
        return "the probe job " + id + " with " + field + " did not finish within " + wait.toSeconds() + " s";
    }

    /**
     * Measures the platform's CPU while nothing is submitted, first as it is, then with {@link BenchOptions#idleRows}
     * PENDING rows due in {@link #IDLE_DUE_IN} inserted straight into the scheduler's table, which are deleted after.
     * The rows bypass the API: they are what a scheduler holding that many delayed jobs has in its table, without
     * the hours of submissions that would put them there.
     */
    private WorkloadResult delayedIdle(BenchOptions.Run run) {
        List<String> notes = new java.util.ArrayList<>();
        int leftover = db.deleteIdleRows();
        if (leftover > 0) {
            notes.add("deleted " + leftover + " idle rows left by an earlier bench first");
        }
        out.println(run.label() + ": " + options.idleWindow().toSeconds() + " s of CPU without future rows...");
        sleep(IDLE_QUIET.toMillis());
        Map<String, Double> empty = idleWindow();
        Thread cleanup = Thread.ofPlatform().unstarted(() -> {
            try {
                PlatformDb.deleteIdleRows(platform.postgresPort());
            } catch (RuntimeException e) {
                System.err.println("bench: could not delete the idle rows (job_type " + PlatformDb.IDLE_MARKER
                        + ") from jobweaver_scheduler.job_executions: " + e.getMessage());
            }
        });
        // a bench stopped with Ctrl-C while the rows are in the table must not leave a million jobs due tomorrow
        Runtime.getRuntime().addShutdownHook(cleanup);
        int deleted = -1;
        double insertSeconds;
        Map<String, Double> loaded;
        try {
            long t0 = System.nanoTime();
            db.insertIdleRows(options.idleRows(), IDLE_DUE_IN, done -> out.println(run.label() + ": inserted "
                    + done + " of " + options.idleRows() + " future rows"));
            db.vacuumJobExecutions();
            insertSeconds = (System.nanoTime() - t0) / 1e9;
            out.println(run.label() + ": " + options.idleWindow().toSeconds() + " s of CPU with "
                    + options.idleRows() + " future rows...");
            sleep(IDLE_QUIET.toMillis());
            loaded = idleWindow();
        } finally {
            try {
                deleted = db.deleteIdleRows();
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (RuntimeException e) {
                notes.add(e.getMessage() + "; the shutdown of the bench tries again");
            }
        }
        if (deleted >= 0 && deleted != options.idleRows()) {
            notes.add("deleted " + deleted + " idle rows, not " + options.idleRows());
        }
        IdleCpu idle = new IdleCpu(options.idleRows(), IDLE_DUE_IN, insertSeconds, options.idleWindow(),
                IdleCpu.combine(empty, loaded), deleted);
        notes.add(0, "rows inserted into jobweaver_scheduler.job_executions directly (job_type "
                + PlatformDb.IDLE_MARKER + ", PENDING, due in " + IDLE_DUE_IN.toHours() + " h), not through the API;"
                + " CPU from /proc utime+stime over each window");
        return WorkloadResult.idle(run, idle, String.join("; ", notes));
    }

    /** Each process's CPU in ms per second over one idle window. */
    private Map<String, Double> idleWindow() {
        List<SampledProcess> processes = platform.sampledProcesses();
        Map<String, Map<Long, Long>> before = IdleCpu.ticks(processes);
        long t0 = System.nanoTime();
        sleep(options.idleWindow().toMillis());
        Map<String, Map<Long, Long>> after = IdleCpu.ticks(processes);
        return IdleCpu.rates(before, after, System.nanoTime() - t0);
    }

    /**
     * Submits waiting jobs and cancels each once all were accepted, then submits running jobs (in waves of at most
     * {@link Cancels#WORKER_RUNS}) and cancels each once the worker has started it; waits until every job is
     * CANCELLED (or ended otherwise) and, past the waiting jobs' due time, reads what each service recorded.
     */
    private WorkloadResult cancel(BenchOptions.Run run) {
        String unavailable = probeCancel(run.label());
        if (unavailable != null) {
            return WorkloadResult.unavailable(run, unavailable);
        }
        List<String> notes = new ArrayList<>();
        Map<UUID, CancelAnswer> answers = new ConcurrentHashMap<>();
        List<Accepted> accepted = new ArrayList<>();
        Submission submission;
        FreshnessProbe visible;
        try (ApiClient client = new ApiClient(api.baseUrl(), Cancels.CONCURRENCY);
             PlatformDb.TerminalReader reader = PlatformDb.cancelledReader(platform.postgresPort())) {
            // the probe's "terminal" is CANCELLED here, and it follows every cancelled job
            visible = new FreshnessProbe(reader, InstantSource.system(), options.cancelJobs()).start();
            Canceller canceller = new Canceller(client, visible, answers);
            try {
                Batch waiting = submit(client, run.label() + " waiting", options.cancelWaiting(), JobKind.NOOP,
                        Control.delayed(Cancels.WAITING_DELAY_MS));
                // every waiting job was accepted by now, so none is due later than this
                long lastDue = System.nanoTime() + Duration.ofMillis(Cancels.WAITING_DELAY_MS).toNanos();
                accepted.addAll(waiting.accepted());
                submission = waiting.submission();
                out.println(run.label() + ": cancelling " + waiting.accepted().size() + " waiting jobs...");
                waiting.accepted().forEach(canceller::cancel);
                canceller.drain();
                for (int from = 0; from < options.cancelRunning(); from += Cancels.WORKER_RUNS) {
                    int count = Math.min(Cancels.WORKER_RUNS, options.cancelRunning() - from);
                    Batch wave = submit(client, run.label() + " running", count, JobKind.LONG_SLEEPER, Control.NONE);
                    accepted.addAll(wave.accepted());
                    submission = submission.plus(wave.submission());
                    out.println(run.label() + ": cancelling " + wave.accepted().size() + " running jobs as the "
                            + "worker starts them...");
                    int unseen = cancelOnceRunning(wave.accepted(), canceller);
                    if (unseen > 0) {
                        notes.add(unseen + " running jobs were not seen RUNNING within " + options.timeout().toSeconds()
                                + " s of the last start and were cancelled anyway");
                    }
                    canceller.drain();
                    awaitCancelled(run.label(), ids(wave.accepted()), visible, notes);
                }
                long wait = lastDue + AFTER_DUE.toNanos() - System.nanoTime();
                if (wait > 0) {
                    out.println(run.label() + ": waiting " + Math.round(wait / 1e9) + " s until the waiting jobs' "
                            + "due time has passed, for a run of any of them to show...");
                    sleep(wait / 1_000_000);
                }
                awaitCancelled(run.label(), ids(accepted), visible, notes);
            } finally {
                visible.stop();
            }
        }
        // the waiting jobs' runAt into the raw files, so that a run of one can be set against its due time
        List<JobRecord> records = db.withRecordedControl(visible.withProbedVisibility(db.records(accepted)));
        Map<UUID, PlatformDb.CancelTrace> traces = db.cancelTraces(ids(accepted));
        List<Cancels.Job> cancelled = records.stream().map(r -> {
            CancelAnswer answer = answers.get(r.jobId());
            PlatformDb.CancelTrace trace = traces.getOrDefault(r.jobId(), PlatformDb.CancelTrace.NONE);
            return new Cancels.Job(r.jobId(), r.kind() == JobKind.LONG_SLEEPER ? Cancels.Kind.RUNNING
                    : Cancels.Kind.WAITING, answer == null ? 0 : answer.status(),
                    answer == null ? Double.NaN : answer.ms(), answer == null ? null : answer.at(),
                    trace.cancelledAt(), r.visibleProbedAt(), r.status(), r.executions(), trace.attemptFinishedAt(),
                    trace.attemptError());
        }).toList();
        answers.values().stream().filter(a -> a.status() != 202).findFirst().ifPresent(a -> notes.add(
                "first cancel not answered 202: " + a.status() + " " + shorten(a.body())));
        if (visible.problem() != null) {
            notes.add("the lookups for CANCELLED stopped early, so few or no figures to visible: "
                    + visible.problem());
        }
        if (db.workerProblem() != null) {
            notes.add("execution_attempts unreadable, so no runs counted: " + db.workerProblem());
        }
        if (db.cancelProblem() != null) {
            notes.add("cancel times not read: " + db.cancelProblem());
        }
        notes.add(0, String.format(java.util.Locale.ROOT, "waiting: %d no-op jobs with delayMs %d, each cancelled "
                        + "once all were accepted; running: %d jobs sleeping 30 s (maxRetryCount 0), in waves of at "
                        + "most %d, each cancelled once the worker had started it (execution_attempts RUNNING, looked "
                        + "up every %d ms); %d cancels in flight at most. From the cancel's 202 at the bench to: the "
                        + "scheduler's job_executions.finished_at (CANCELLED), the first lookup of jobs.status every %d"
                        + " ms that found CANCELLED (visible), the worker's execution_attempts.finished_at (interrupt);"
                        + " one machine, one clock. Runs of waiting jobs looked for until %d s past their due time",
                options.cancelWaiting(), Cancels.WAITING_DELAY_MS, options.cancelRunning(), Cancels.WORKER_RUNS,
                RUNNING_POLL_MS, Cancels.CONCURRENCY, FreshnessProbe.POLL_MS, AFTER_DUE.toSeconds()));
        return WorkloadResult.cancelled(run, submission, records, cancelled,
                note(submission, String.join("; ", notes)));
    }

    /**
     * Whether the platform cancels: one waiting job must be accepted, its cancel answered 202 and the job shown
     * CANCELLED. Returns why not, or null when it does; an API without the cancel path (405, or a 404 without its
     * {@value #JOB_NOT_FOUND} code) makes the workload unavailable after two requests.
     */
    String probeCancel(String label) {
        out.println(label + ": probing POST /api/jobs/{id}/cancel (one waiting job)...");
        ApiClient.Answer job = api.submit(Control.delayed(Cancels.WAITING_DELAY_MS).body(JobKind.NOOP)).join();
        if (!job.accepted()) {
            return "the probe job (delayMs " + Cancels.WAITING_DELAY_MS + ") was not accepted: " + job.status() + " "
                    + shorten(job.body());
        }
        UUID id = job.jobId();
        ApiClient.Answer cancel = api.cancel(id).join();
        if (cancel.status() == 405 || cancel.status() == 404 && !cancel.body().contains(JOB_NOT_FOUND)) {
            return "the API answers " + cancel.status() + " to POST /api/jobs/{id}/cancel (" + shorten(cancel.body())
                    + "); the platform does not support cancel";
        }
        if (cancel.status() != 202) {
            return "the probe job's cancel was answered " + cancel.status() + " " + shorten(cancel.body())
                    + ", not 202";
        }
        Duration wait = options.timeout();
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (!db.cancelled(List.of(id)).isEmpty()) {
                return null;
            }
            sleep(100);
        }
        return "the probe job " + id + " was not CANCELLED within " + wait.toSeconds() + " s of its accepted cancel";
    }

    /** Jobs of one group that the API accepted, and how their submission went. */
    private record Batch(Submission submission, List<Accepted> accepted) {
    }

    /** Sends {@code count} jobs of {@code kind} with {@code control} at {@link Cancels#CONCURRENCY}. */
    private Batch submit(ApiClient client, String label, int count, JobKind kind, Control control) {
        List<Accepted> accepted = Collections.synchronizedList(new ArrayList<>());
        Submission submission;
        try (Progress progress = new Progress(label, count, out, terminal)) {
            submission = new Submitter(client).burst(count, Cancels.CONCURRENCY, i -> kind, i -> control,
                    accepted::add, progress);
        }
        return new Batch(submission, List.copyOf(accepted));
    }

    /**
     * Cancels each of {@code jobs} as soon as a lookup finds its run started; after {@link BenchOptions#timeout}
     * without a new start the rest are cancelled anyway, so that no run outlives the workload. Returns how many were.
     */
    private int cancelOnceRunning(List<Accepted> jobs, Canceller canceller) {
        Map<UUID, Accepted> pending = new LinkedHashMap<>();
        jobs.forEach(j -> pending.put(j.jobId(), j));
        long lastStart = System.nanoTime();
        while (!pending.isEmpty() && System.nanoTime() - lastStart < options.timeout().toNanos()) {
            Set<UUID> started = db.running(pending.keySet());
            if (!started.isEmpty()) {
                lastStart = System.nanoTime();
                started.forEach(id -> canceller.cancel(pending.remove(id)));
            }
            sleep(RUNNING_POLL_MS);
        }
        pending.values().forEach(canceller::cancel);
        return pending.size();
    }

    /**
     * Waits until every job of {@code ids} is CANCELLED in the API or ended otherwise, and the worker runs none of
     * them; gives up after {@link BenchOptions#timeout} without progress, with a note.
     */
    private void awaitCancelled(String label, List<UUID> ids, FreshnessProbe visible, List<String> notes) {
        long lastProgress = System.nanoTime();
        int lastOpen = -1;
        while (true) {
            List<UUID> unseen = ids.stream().filter(id -> !visible.seen(id)).toList();
            int open = unseen.isEmpty() ? 0 : unseen.size() - db.terminal(unseen).size();
            int running = db.running(ids).size();
            if (open == 0 && running == 0) {
                return;
            }
            if (open + running != lastOpen) {
                lastOpen = open + running;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > options.timeout().toNanos()) {
                notes.add(open + " jobs not CANCELLED nor ended, and " + running + " runs still going, after "
                        + options.timeout().toSeconds() + " s without a change");
                out.println(label + ": gave up waiting for " + open + " jobs and " + running + " runs");
                return;
            }
            sleep(CompletionWatcher.POLL_MS);
        }
    }

    private static List<UUID> ids(Collection<Accepted> jobs) {
        return jobs.stream().map(Accepted::jobId).toList();
    }

    /**
     * The answer to one cancel.
     *
     * @param status its HTTP status (0: none)
     * @param ms from sending the request to the whole answer
     * @param at when the answer reached the bench
     * @param body its body, or the failure's message
     */
    private record CancelAnswer(int status, double ms, Instant at, String body) {
    }

    /**
     * Sends cancels with at most {@link Cancels#CONCURRENCY} in flight, each job followed by the lookups for CANCELLED
     * from its request on, and keeps every answer.
     */
    private static final class Canceller {

        private final ApiClient client;
        private final FreshnessProbe visible;
        private final Map<UUID, CancelAnswer> answers;
        private final Semaphore permits = new Semaphore(Cancels.CONCURRENCY);

        Canceller(ApiClient client, FreshnessProbe visible, Map<UUID, CancelAnswer> answers) {
            this.client = client;
            this.visible = visible;
            this.answers = answers;
        }

        /** Sends the cancel of {@code job}; blocks while {@link Cancels#CONCURRENCY} are in flight. */
        void cancel(Accepted job) {
            permits.acquireUninterruptibly();
            visible.offer(job);
            long sent = System.nanoTime();
            client.cancel(job.jobId()).whenComplete((answer, e) -> {
                // taken on the client's event loop as the answer arrives: the start of every cancel figure
                Instant at = Instant.now();
                double ms = (System.nanoTime() - sent) / 1e6;
                answers.put(job.jobId(), answer == null ? new CancelAnswer(0, Double.NaN, at, String.valueOf(e))
                        : new CancelAnswer(answer.status(), ms, at, answer.body()));
                permits.release();
            });
        }

        /** Waits until every cancel sent has its answer. */
        void drain() {
            permits.acquireUninterruptibly(Cancels.CONCURRENCY);
            permits.release(Cancels.CONCURRENCY);
        }
    }

    private String workerNote(String note, Observed run) {
        List<String> parts = new java.util.ArrayList<>();
        if (!note.isEmpty()) {
            parts.add(note);
        }
        if (run.probe() != null && run.probe().problem() != null) {
            parts.add("the freshness probe stopped early, so few or no status freshness figures: "
                    + run.probe().problem());
        }
        if (db.workerProblem() != null) {
            parts.add("execution_attempts unreadable, so no start times and no duplicate check: "
                    + db.workerProblem());
        }
        if (db.schedulerProblem() != null) {
            parts.add("job_executions unreadable, so no scheduler stages: " + db.schedulerProblem());
        }
        return String.join("; ", parts);
    }

    private static String note(Submission submission, String note) {
        if (submission.accepted() == 0 && submission.rejected() > 0) {
            String refused = "the API accepted none of " + submission.offered() + " jobs";
            return note.isEmpty() ? refused : note + "; " + refused;
        }
        return note;
    }

    private static String shorten(String s) {
        return s == null ? "" : s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
