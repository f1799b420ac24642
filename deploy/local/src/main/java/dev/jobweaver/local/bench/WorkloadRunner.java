package dev.jobweaver.local.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
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
