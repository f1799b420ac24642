package dev.jobweaver.bench;

import static dev.jobweaver.bench.ApiText.field;
import static dev.jobweaver.bench.ApiText.instant;
import static dev.jobweaver.bench.ApiText.shorten;
import static dev.jobweaver.bench.ApiText.sleep;
import static dev.jobweaver.bench.ApiText.uuid;

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
            case NOTIFY -> notifications(run);
            case SCHEDULES -> schedules(run);
            case WORKFLOW -> workflows().run(run);
            case LIMITS -> limits().run(run);
            case MIXED -> mixed().run(run);
            case QUEUES -> queues().run(run);
            case PURGE -> purge().run(run);
        };
    }

    /** The workflow workload, which keeps its requests and reads in a class of its own. */
    WorkflowBench workflows() {
        return new WorkflowBench(options, api, new WorkflowBench.NodeJobs() {
            @Override
            public List<JobRecord> records(List<Accepted> jobs) {
                return db.records(jobs);
            }

            @Override
            public String workerProblem() {
                return db.workerProblem();
            }
        }, out, terminal);
    }

    /** The limits workload, which keeps its requests and reads in a class of its own. */
    LimitsBench limits() {
        return new LimitsBench(options, api, new LimitsBench.Jobs() {
            @Override
            public WorkloadResult burst(BenchOptions.Run run, Control control) {
                return closedLoop(run, i -> JobKind.NOOP, i -> control, "");
            }

            @Override
            public LimitsBench.Batch send(String label, int count, int concurrency, JobKind kind, Control control) {
                Observed done = closedLoop(label, count, concurrency, i -> kind, i -> control, false);
                return new LimitsBench.Batch(done.submission(), records(done));
            }

            @Override
            public Integer schedulerLimit(String tenant) {
                return db.tenantLimit(tenant);
            }
        }, out);
    }

    /** The mixed workload, which keeps its requests and reads in a class of its own. */
    MixedBench mixed() {
        return new MixedBench(options, api, limits(), (run, controls, tap) -> {
            Observed done = closedLoop(run.label(), options.jobsAt(run.concurrency()), run.concurrency(),
                    i -> JobKind.NOOP, controls, tap, true);
            return result(run, done, records(done), "");
        }, out);
    }

    /** The queues workload, which keeps its requests and reads in a class of its own. */
    QueuesBench queues() {
        return new QueuesBench(options, api, new QueuesBench.Jobs() {
            @Override
            public WorkloadResult burst(BenchOptions.Run run, IntFunction<Control> controls) {
                return closedLoop(run, i -> JobKind.NOOP, controls, "");
            }

            @Override
            public void warmUp(String label, int count, int concurrency, IntFunction<Control> controls) {
                closedLoop(label, count, concurrency, i -> JobKind.NOOP, controls, false);
            }

            @Override
            public Map<String, Long> runsByWorker(List<UUID> jobs) {
                return db.executionsByWorker(jobs);
            }

            @Override
            public Set<String> sampled() {
                return Set.copyOf(platform.instances().stream().map(PlatformState.Instance::name).toList());
            }
        }, out);
    }

    /** The purge workload, which keeps its seed, requests and counts in classes of its own. */
    PurgeBench purge() {
        return new PurgeBench(options, api, new PurgeBench.Jobs() {
            @Override
            public void warmUp() {
                if (!options.settle().isZero()) {
                    openLoop("steady warm-up", new RateSchedule(options.rate(), options.settle()), false);
                }
            }

            @Override
            public WorkloadResult steadyUntil(BenchOptions.Run run, java.util.function.BooleanSupplier stop,
                                              Duration cap) {
                Observed done = observe(run.label(), new RateSchedule(options.rate(), cap).count(), true,
                        options.timeout(), (sink, progress) -> new Submitter(api).openLoop(
                                new RateSchedule(options.rate(), cap), i -> Control.NONE, sink, progress, stop));
                String note = String.format(java.util.Locale.ROOT, "steady: offered %s/s while the purge ran; "
                        + "largest send delay behind schedule %s ms", Targets.fmt(options.rate()),
                        Targets.fmt(done.submission().maxSendLagMs()));
                return result(run, done, records(done), note);
            }
        }, platform.postgresPort(), out);
    }

    /**
     * Runs {@code count} no-op jobs at the main concurrency and forgets them, once all have ended (JIT and
     * connection warm-up, {@link WarmUp}).
     */
    public void warmUp(int count) {
        closedLoop("warm-up", count, options.concurrency(), i -> JobKind.NOOP, false);
    }

    private WorkloadResult closedLoop(BenchOptions.Run run, IntFunction<JobKind> kinds, String note) {
        return closedLoop(run, kinds, i -> Control.NONE, note);
    }

    /** {@link #closedLoop(BenchOptions.Run, IntFunction, String)}, job {@code i} sent with {@code controls(i)}. */
    private WorkloadResult closedLoop(BenchOptions.Run run, IntFunction<JobKind> kinds, IntFunction<Control> controls,
                                      String note) {
        Observed done = closedLoop(run.label(), options.jobsAt(run.concurrency()), run.concurrency(), kinds,
                controls, true);
        return result(run, done, records(done), note);
    }

    /**
     * What a measured run of accepted jobs reports: {@code done}'s submission, the jobs as {@code records}, and
     * {@code note} with what could not be measured; with the share of the work each replica took.
     */
    private WorkloadResult result(BenchOptions.Run run, Observed done, List<JobRecord> records, String note) {
        return WorkloadResult.of(run, done.submission(), records, note(done.submission(), workerNote(note, done)))
                .withReplicaShare(share(done));
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
        return closedLoop(label, count, concurrency, kinds, controls, job -> { }, measured);
    }

    /**
     * {@link #closedLoop(String, int, int, IntFunction, IntFunction, boolean)}, each accepted job also handed to
     * {@code tap}.
     */
    private Observed closedLoop(String label, int count, int concurrency, IntFunction<JobKind> kinds,
                                IntFunction<Control> controls, Consumer<Accepted> tap, boolean measured) {
        try (ApiClient client = api.withConnections(concurrency)) {
            return observe(label, count, measured, options.timeout(), (sink, progress) -> new Submitter(client)
                    .burst(count, concurrency, kinds, controls, sink.andThen(tap), progress));
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
        return result(measured, run, records(run), note);
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
        return result(run, done, records, controlNote(note, records));
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
        return result(run, done, records, controlNote(note, records));
    }

    /**
     * {@code note} with what the platform did not record of the job control the jobs were sent with: a column it has
     * not got, a priority it stored otherwise, a delay without a start time.
     */
    private String controlNote(String note, List<JobRecord> records) {
        List<String> parts = new java.util.ArrayList<>(List.of(note));
        noteProblem(parts, "job control not read back", db.controlProblem());
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
        try (ApiClient client = api.withConnections(Cancels.CONCURRENCY);
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
        noteProblem(notes, "the lookups for CANCELLED stopped early, so few or no figures to visible",
                visible.problem());
        noteProblem(notes, "execution_attempts unreadable, so no runs counted", db.workerProblem());
        noteProblem(notes, "cancel times not read", db.cancelProblem());
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

    /** The delay of the notify workload's probe job: long enough for its subscription to exist before it runs. */
    static final long NOTIFY_PROBE_DELAY_MS = 2_000;

    /** Period of the notify workload's checks for finished jobs and their deliveries, milliseconds. */
    static final long NOTIFY_POLL_MS = 250;

    /** Period of the schedules workload's reads of the ticks' jobs after its window, milliseconds. */
    static final long TICKS_POLL_MS = 2_000;

    /**
     * Submits {@link BenchOptions#notifyJobs} no-op jobs that all start at one instant (by {@code delayMs}, counted
     * down to it), far enough ahead for every job to get its subscription to COMPLETED first; subscribes each to a
     * receiver in this process; waits until every job ended and its webhook arrived, or until
     * {@link BenchOptions#timeout} passes without either; then checks every delivery's signature against its
     * subscription's secret. The subscriptions are left in place: their jobs are finished, nothing more is sent.
     */
    private WorkloadResult notifications(BenchOptions.Run run) {
        List<String> notes = new ArrayList<>();
        try (NotifyEndpoint receiver = NotifyEndpoint.start();
             ApiClient client = api.withConnections(Notifications.CONCURRENCY)) {
            Set<UUID> probes = ConcurrentHashMap.newKeySet();
            String unavailable = probeNotify(run.label(), receiver, probes);
            if (unavailable != null) {
                return WorkloadResult.unavailable(run, unavailable);
            }
            int count = options.notifyJobs();
            Duration lead = Notifications.lead(count);
            long startNanos = System.nanoTime() + lead.toNanos();
            out.println(run.label() + ": " + count + " no-op jobs starting together in " + lead.toSeconds()
                    + " s, each subscribed to COMPLETED at " + receiver.url() + "...");
            List<Accepted> accepted = Collections.synchronizedList(new ArrayList<>());
            Submission submission;
            try (Progress progress = new Progress(run.label() + " jobs", count, out, terminal)) {
                // delayMs counted down to the common start at each send: every job is due at about the same instant
                submission = new Submitter(client).burst(count, Notifications.CONCURRENCY, i -> JobKind.NOOP,
                        i -> Control.delayed(Math.max(0, (startNanos - System.nanoTime()) / 1_000_000)),
                        accepted::add, progress);
            }
            List<Accepted> jobs = List.copyOf(accepted);
            Map<UUID, SubscribeAnswer> answers = subscribe(run.label(), client, jobs, receiver.url());
            double subscribing = answers.values().stream().mapToLong(SubscribeAnswer::doneNanos).max().orElse(0)
                    - answers.values().stream().mapToLong(SubscribeAnswer::sentNanos).min().orElse(0);
            long created = answers.values().stream().filter(a -> a.status() == 201).count();
            double rate = created == 0 || subscribing <= 0 ? Double.NaN : created / (subscribing / 1e9);
            long lastSubscribed = answers.values().stream().mapToLong(SubscribeAnswer::doneNanos).max().orElse(0);
            if (lastSubscribed > startNanos) {
                notes.add("the last subscription was created " + Math.round((lastSubscribed - startNanos) / 1e6)
                        + " ms after the jobs' common start: jobs that finished before theirs are counted apart");
            }
            awaitNotified(run.label(), jobs, answers, receiver, startNanos, notes);
            List<JobRecord> records = db.records(jobs);
            List<Notifications.Job> subscribed = records.stream().map(r -> {
                SubscribeAnswer a = answers.get(r.jobId());
                return new Notifications.Job(r.jobId(), a == null ? 0 : a.status(), a == null ? Double.NaN : a.ms(),
                        a == null ? null : a.at(), a == null ? null : Webhooks.key(a.secret()), r.status(),
                        r.finishedAt());
            }).toList();
            List<NotifyEndpoint.Delivery> deliveries = receiver.deliveries().stream()
                    .filter(d -> d.jobId() == null || !probes.contains(d.jobId())).toList();
            Notifications figures = Notifications.of(subscribed, deliveries, rate);
            answers.values().stream().filter(a -> a.status() != 201).findFirst().ifPresent(a -> notes.add(
                    "first subscription not answered 201: " + a.status() + " " + shorten(a.body())));
            noteProblem(notes, "execution_attempts unreadable, so no start times", db.workerProblem());
            notes.add(0, String.format(java.util.Locale.ROOT, "%d no-op jobs with delayMs counted down to one "
                            + "start %d s after the first submission, each subscribed to %s at %s; %d requests in "
                            + "flight; finish to receipt = the first delivery with a good signature - the body's "
                            + "finishedAt (else jobs.finished_at); deliveries/s over first to last receipt; "
                            + "subscriptions left in place", count, lead.toSeconds(), Notifications.EVENT,
                    receiver.url(), Notifications.CONCURRENCY));
            return WorkloadResult.notified(run, submission, records, figures,
                    Notifications.correctness(subscribed, deliveries), note(submission, String.join("; ", notes)));
        }
    }

    /**
     * Whether the platform notifies: one job with a short delay, its subscription to COMPLETED answered 201 with a
     * secret, and a webhook for it at {@code receiver} within {@link BenchOptions#timeout}. Returns why not, or null
     * when it does; an API without the subscriptions path (405, or a 404 without {@value #JOB_NOT_FOUND}) makes the
     * workload unavailable after two requests. The probe job's id goes into {@code probes}.
     */
    String probeNotify(String label, NotifyEndpoint receiver, Set<UUID> probes) {
        out.println(label + ": probing POST /api/subscriptions (one job, its webhook to " + receiver.url() + ")...");
        ApiClient.Answer job = api.submit(Control.delayed(NOTIFY_PROBE_DELAY_MS).body(JobKind.NOOP)).join();
        if (!job.accepted()) {
            return "the probe job (delayMs " + NOTIFY_PROBE_DELAY_MS + ") was not accepted: " + job.status() + " "
                    + shorten(job.body());
        }
        UUID id = job.jobId();
        probes.add(id);
        ApiClient.Answer subscription = api.send(io.vertx.core.http.HttpMethod.POST, "/api/subscriptions",
                Notifications.subscriptionBody(id, receiver.url())).join();
        int status = subscription.status();
        if (status == 405 || status == 404 && !subscription.body().contains(JOB_NOT_FOUND)) {
            return "the API answers " + status + " to POST /api/subscriptions (" + shorten(subscription.body())
                    + "); the platform does not support notifications";
        }
        if (status != 201) {
            return "the probe subscription was answered " + status + " " + shorten(subscription.body())
                    + ", not 201";
        }
        if (Webhooks.key(field(subscription.body(), "secret")) == null) {
            return "the probe subscription's 201 has no " + Webhooks.SECRET_PREFIX + " secret: "
                    + shorten(subscription.body());
        }
        Duration wait = options.timeout();
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (receiver.received(id)) {
                return null;
            }
            sleep(100);
        }
        return "no webhook for the probe job " + id + " reached " + receiver.url() + " within " + wait.toSeconds()
                + " s (does the API allow loopback destinations? `./jobweaver up` does)";
    }

    /**
     * The answer to one subscription.
     *
     * @param status its HTTP status (0: none)
     * @param ms from sending the request to the whole answer
     * @param at when the answer reached the bench
     * @param sentNanos when the request was sent ({@link System#nanoTime})
     * @param doneNanos when the answer arrived
     * @param secret the answer's {@code secret}; null without one
     * @param body its body, or the failure's message
     */
    private record SubscribeAnswer(int status, double ms, Instant at, long sentNanos, long doneNanos, String secret,
                                   String body) {
    }

    /** Subscribes each of {@code jobs} to COMPLETED at {@code url}, {@link Notifications#CONCURRENCY} in flight. */
    private Map<UUID, SubscribeAnswer> subscribe(String label, ApiClient client, List<Accepted> jobs, String url) {
        Map<UUID, SubscribeAnswer> answers = new ConcurrentHashMap<>();
        Semaphore permits = new Semaphore(Notifications.CONCURRENCY);
        try (Progress progress = new Progress(label + " subscriptions", jobs.size(), out, terminal)) {
            for (Accepted job : jobs) {
                permits.acquireUninterruptibly();
                long sent = System.nanoTime();
                client.send(io.vertx.core.http.HttpMethod.POST, "/api/subscriptions",
                        Notifications.subscriptionBody(job.jobId(), url)).whenComplete((answer, e) -> {
                            // taken on the client's event loop as the answer arrives: the subscription exists by then
                            Instant at = Instant.now();
                            long done = System.nanoTime();
                            answers.put(job.jobId(), answer == null
                                    ? new SubscribeAnswer(0, Double.NaN, at, sent, done, null, String.valueOf(e))
                                    : new SubscribeAnswer(answer.status(), (done - sent) / 1e6, at, sent, done,
                                    answer.status() == 201 ? field(answer.body(), "secret") : null, answer.body()));
                            progress.sent();
                            permits.release();
                        });
            }
            permits.acquireUninterruptibly(Notifications.CONCURRENCY);
        }
        return answers;
    }

    /**
     * Waits until every job of {@code jobs} has ended and every subscribed one that COMPLETED has a delivery; gives up
     * after {@link BenchOptions#timeout} without a change once the jobs' start has come, with a note.
     */
    private void awaitNotified(String label, List<Accepted> jobs, Map<UUID, SubscribeAnswer> answers,
                               NotifyEndpoint receiver, long startNanos, List<String> notes) {
        Set<UUID> open = new java.util.LinkedHashSet<>(ids(jobs));
        Set<UUID> undelivered = new java.util.LinkedHashSet<>();
        jobs.forEach(j -> {
            SubscribeAnswer a = answers.get(j.jobId());
            if (a != null && a.status() == 201) {
                undelivered.add(j.jobId());
            }
        });
        long lastChange = System.nanoTime();
        int last = -1;
        try (Progress progress = new Progress(label + " deliveries", undelivered.size(), out, terminal)) {
            while (true) {
                if (!open.isEmpty()) {
                    open.removeAll(db.terminal(open));
                }
                int before = undelivered.size();
                undelivered.removeIf(receiver::received);
                progress.done(before - undelivered.size());
                if (open.isEmpty() && undelivered.isEmpty()) {
                    return;
                }
                long now = System.nanoTime();
                if (open.size() + undelivered.size() != last || now < startNanos) {
                    last = open.size() + undelivered.size();
                    lastChange = Math.max(now, lastChange);
                } else if (now - lastChange > options.timeout().toNanos()) {
                    notes.add(open.size() + " jobs not ended and " + undelivered.size() + " subscribed jobs without a "
                            + "delivery after " + options.timeout().toSeconds() + " s without a change");
                    out.println(label + ": gave up waiting for " + open.size() + " jobs and " + undelivered.size()
                            + " deliveries");
                    return;
                }
                sleep(NOTIFY_POLL_MS);
            }
        }
    }

    /**
     * Measures {@link BenchOptions#scheduleWindow} of CPU and RSS with no schedule; creates
     * {@link BenchOptions#schedules} schedules ticking every {@link ScheduleTicks#INTERVAL}, sent evenly over one
     * interval so that their ticks, anchored at their creation, spread evenly over every minute; then measures the
     * same window with them ticking, the scheduler's metrics at both ends; waits until every tick due in it has its
     * job (or {@link BenchOptions#timeout}); deletes every schedule (pauses one that cannot be deleted).
     */
    private WorkloadResult schedules(BenchOptions.Run run) {
        String unavailable = probeSchedules(run.label());
        if (unavailable != null) {
            return WorkloadResult.unavailable(run, unavailable);
        }
        List<String> notes = new ArrayList<>();
        Duration window = options.scheduleWindow();
        out.println(run.label() + ": " + window.toSeconds() + " s of CPU and RSS before any schedule...");
        sleep(IDLE_QUIET.toMillis());
        Usage idle = usage(window);
        int count = options.schedules();
        Duration interval = ScheduleTicks.INTERVAL;
        List<ScheduleTicks.Schedule> created = Collections.synchronizedList(new ArrayList<>());
        Thread cleanup = Thread.ofPlatform().unstarted(() -> {
            List<UUID> left = scheduleIds(created);
            try (ApiClient client = api.withConnections(ScheduleTicks.CONCURRENCY)) {
                removeSchedules(client, left);
            } catch (RuntimeException e) {
                System.err.println("bench: could not delete the " + left.size() + " schedules named "
                        + ScheduleTicks.NAME_PREFIX + "*: " + e.getMessage());
            }
        });
        // a bench stopped with Ctrl-C must not leave thousands of schedules making jobs every minute
        Runtime.getRuntime().addShutdownHook(cleanup);
        Creation creation;
        Instant from;
        ScheduleTicks.SchedulerMetric metric;
        List<ScheduleTicks.ProcessUse> uses;
        List<ScheduleTicks.TickJob> jobs;
        Removal removal;
        try (ApiClient client = api.withConnections(ScheduleTicks.CONCURRENCY);
             java.net.http.HttpClient scraper = java.net.http.HttpClient.newBuilder()
                     .connectTimeout(Duration.ofSeconds(3)).build()) {
            try {
                out.println(run.label() + ": creating " + count + " schedules (interval " + interval.toSeconds()
                        + " s) evenly over " + interval.toSeconds() + " s...");
                creation = createSchedules(run.label(), client, count, interval, created);
                from = Instant.now();
                out.println(run.label() + ": " + window.toSeconds() + " s of ticks of " + created.size()
                        + " schedules...");
                Map<String, List<PrometheusText.Sample>> before = schedulerMetrics(scraper);
                Usage loaded = usage(window);
                Map<String, List<PrometheusText.Sample>> after = schedulerMetrics(scraper);
                uses = idle.against(loaded);
                metric = ScheduleTicks.SchedulerMetric.of(before, after);
                jobs = awaitTicks(run.label(), List.copyOf(created), interval, from, from.plus(window), notes);
            } finally {
                // later workloads of the run must not share the machine with the ticks
                out.println(run.label() + ": deleting " + created.size() + " schedules...");
                removal = removeSchedules(client, scheduleIds(created));
                Runtime.getRuntime().removeShutdownHook(cleanup);
            }
        }
        ScheduleTicks ticks = ScheduleTicks.of(List.copyOf(created), creation.notCreated(), creation.perSecond(),
                interval, from, from.plus(window), jobs, metric, uses, removal.deleted() + removal.paused());
        notes.add(removal.describe(created.size()));
        if (creation.firstRefusal() != null) {
            notes.add("first creation not answered 201 with an id: " + creation.firstRefusal());
        }
        if (creation.maxLagMs() > 1_000) {
            notes.add("the creations fell up to " + Targets.fmt(creation.maxLagMs()) + " ms behind their schedule: "
                    + "the ticks are bunched, not even");
        }
        if (ticks.firstTickGuessed() > 0) {
            notes.add(ticks.firstTickGuessed() + " creations answered without nextRunAt: their first tick taken as "
                    + "the answer's arrival plus the interval");
        }
        if (!metric.published()) {
            notes.add("the scheduler publishes no " + ScheduleTicks.SchedulerMetric.LAG + " at /q/metrics");
        }
        notes.add(0, String.format(java.util.Locale.ROOT, "%d schedules with interval PT%dS sent evenly over %d s, "
                        + "%d in flight; window from the last creation's answer; expected ticks from each 201's "
                        + "nextRunAt every interval; tick lag = jobs.created_at - jobs.scheduled_for; CPU from /proc "
                        + "utime+stime and RSS every second, over an idle window of the same length before and the "
                        + "window with the schedules", count, interval.toSeconds(), interval.toSeconds(),
                ScheduleTicks.CONCURRENCY));
        return WorkloadResult.ticked(run, ticks, String.join("; ", notes));
    }

    private static List<UUID> scheduleIds(List<ScheduleTicks.Schedule> schedules) {
        synchronized (schedules) {
            return schedules.stream().map(ScheduleTicks.Schedule::id).toList();
        }
    }

    /**
     * Whether the platform has recurring schedules: one schedule must be created (201 with an id) and deleted again.
     * Returns why not, or null when it has; an API without the path (404 or 405) makes the workload unavailable after
     * one request.
     */
    String probeSchedules(String label) {
        out.println(label + ": probing POST /api/schedules (one schedule, deleted at once)...");
        ApiClient.Answer answer = api.send(io.vertx.core.http.HttpMethod.POST, "/api/schedules",
                ScheduleTicks.body(ScheduleTicks.NAME_PREFIX + "probe", ScheduleTicks.INTERVAL)).join();
        if (answer.status() == 404 || answer.status() == 405) {
            return "the API answers " + answer.status() + " to POST /api/schedules (" + shorten(answer.body())
                    + "); the platform does not support recurring schedules";
        }
        if (answer.status() != 201) {
            return "the probe schedule was answered " + answer.status() + " " + shorten(answer.body()) + ", not 201";
        }
        UUID id = uuid(field(answer.body(), "id"));
        if (id == null) {
            return "the probe schedule's 201 has no id: " + shorten(answer.body());
        }
        Removal removal = removeSchedules(api, List.of(id));
        if (removal.deleted() + removal.paused() == 0) {
            return "the probe schedule " + id + " could be neither deleted nor paused: " + removal.firstFailure();
        }
        return null;
    }

    /**
     * How the creations went.
     *
     * @param notCreated creations not answered 201 with an id
     * @param perSecond created / (last answer - first request)
     * @param maxLagMs how far a request fell behind its due time at most
     * @param firstRefusal the first answer that was not a creation; null when every one was
     */
    private record Creation(int notCreated, double perSecond, double maxLagMs, String firstRefusal) {
    }

    /**
     * Creates {@code count} schedules, request {@code i} due at {@code i * interval / count} after the first (at most
     * {@link ScheduleTicks#CONCURRENCY} in flight), each created one into {@code created}.
     */
    private Creation createSchedules(String label, ApiClient client, int count, Duration interval,
                                     List<ScheduleTicks.Schedule> created) {
        Semaphore permits = new Semaphore(ScheduleTicks.CONCURRENCY);
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> firstRefusal = new java.util.concurrent.atomic
                .AtomicReference<>();
        java.util.concurrent.atomic.AtomicLong lastAnswer = new java.util.concurrent.atomic.AtomicLong();
        String stamp = Long.toString(System.currentTimeMillis(), 36);
        long t0 = System.nanoTime();
        long maxLag = 0;
        try (Progress progress = new Progress(label + " creations", count, out, terminal)) {
            for (int i = 0; i < count; i++) {
                long due = t0 + Math.round(i * (double) interval.toNanos() / count);
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
                permits.acquireUninterruptibly();
                long sent = System.nanoTime();
                maxLag = Math.max(maxLag, sent - due);
                client.send(io.vertx.core.http.HttpMethod.POST, "/api/schedules",
                        ScheduleTicks.body(ScheduleTicks.NAME_PREFIX + stamp + "-" + i, interval))
                        .whenComplete((answer, e) -> {
                            Instant at = Instant.now();
                            long done = System.nanoTime();
                            lastAnswer.accumulateAndGet(done, Math::max);
                            UUID id = answer != null && answer.status() == 201 ? uuid(field(answer.body(), "id"))
                                    : null;
                            if (id != null) {
                                created.add(new ScheduleTicks.Schedule(id, (done - sent) / 1e6, at,
                                        instant(field(answer.body(), "nextRunAt"))));
                            } else {
                                refused.incrementAndGet();
                                firstRefusal.compareAndSet(null, answer == null ? String.valueOf(e)
                                        : answer.status() + " " + shorten(answer.body()));
                            }
                            progress.sent();
                            permits.release();
                        });
            }
            permits.acquireUninterruptibly(ScheduleTicks.CONCURRENCY);
        }
        double seconds = (lastAnswer.get() - t0) / 1e9;
        int ok = count - refused.get();
        return new Creation(refused.get(), ok == 0 || seconds <= 0 ? Double.NaN : ok / seconds, maxLag / 1e6,
                firstRefusal.get());
    }

    /**
     * Reads the jobs of {@code schedules}' ticks until every tick due in {@code [from, to]} has one, or
     * {@link BenchOptions#timeout} passes without a new one; returns the last reading.
     */
    private List<ScheduleTicks.TickJob> awaitTicks(String label, List<ScheduleTicks.Schedule> schedules,
                                                   Duration interval, Instant from, Instant to, List<String> notes) {
        List<UUID> ids = schedules.stream().map(ScheduleTicks.Schedule::id).toList();
        long lastChange = System.nanoTime();
        int lastMissing = -1;
        while (true) {
            List<ScheduleTicks.TickJob> jobs = db.tickJobs(ids);
            int missing = ScheduleTicks.of(schedules, 0, Double.NaN, interval, from, to, jobs,
                    ScheduleTicks.SchedulerMetric.NONE, List.of(), 0).missing();
            if (missing == 0) {
                return jobs;
            }
            if (missing != lastMissing) {
                lastMissing = missing;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > options.timeout().toNanos()) {
                notes.add(missing + " ticks due in the window still without a job after "
                        + options.timeout().toSeconds() + " s without a new one");
                out.println(label + ": gave up waiting for " + missing + " ticks' jobs");
                return jobs;
            }
            sleep(TICKS_POLL_MS);
        }
    }

    /**
     * How the schedules were taken away.
     *
     * @param deleted answered 204 to {@code DELETE}, or 404 (already gone)
     * @param paused not deleted, but answered 200 to {@code pause}
     * @param left neither
     * @param firstFailure the answers of the first schedule left; null when none was
     */
    private record Removal(int deleted, int paused, int left, String firstFailure) {

        /** One clause for the notes. */
        String describe(int of) {
            String text = "after the window " + deleted + " of " + of + " schedules deleted";
            if (paused > 0) {
                text += ", " + paused + " paused";
            }
            if (left > 0) {
                text += ", " + left + " LEFT TICKING (" + firstFailure + "): delete the schedules named "
                        + ScheduleTicks.NAME_PREFIX + "* by hand";
            }
            return text;
        }
    }

    /** Deletes each of {@code ids}, pausing one whose delete fails; {@link ScheduleTicks#CONCURRENCY} in flight. */
    private static Removal removeSchedules(ApiClient client, List<UUID> ids) {
        Semaphore permits = new Semaphore(ScheduleTicks.CONCURRENCY);
        java.util.concurrent.atomic.AtomicInteger deleted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger paused = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> firstFailure = new java.util.concurrent.atomic
                .AtomicReference<>();
        for (UUID id : ids) {
            permits.acquireUninterruptibly();
            client.send(io.vertx.core.http.HttpMethod.DELETE, "/api/schedules/" + id, null).thenCompose(d -> {
                if (d.status() == 204 || d.status() == 404) {
                    deleted.incrementAndGet();
                    return java.util.concurrent.CompletableFuture.completedFuture(null);
                }
                return client.send(io.vertx.core.http.HttpMethod.POST, "/api/schedules/" + id + "/pause", null)
                        .thenAccept(p -> {
                            if (p.status() == 200) {
                                paused.incrementAndGet();
                            } else {
                                left.incrementAndGet();
                                firstFailure.compareAndSet(null, "DELETE answered " + d.status() + " "
                                        + shorten(d.body()) + ", pause " + p.status() + " " + shorten(p.body()));
                            }
                        });
            }).whenComplete((ignored, e) -> permits.release());
        }
        permits.acquireUninterruptibly(ScheduleTicks.CONCURRENCY);
        return new Removal(deleted.get(), paused.get(), left.get(), firstFailure.get());
    }

    /** Every scheduler instance's {@code /q/metrics} samples, by instance; one that does not answer is missing. */
    private Map<String, List<PrometheusText.Sample>> schedulerMetrics(java.net.http.HttpClient scraper) {
        Map<String, List<PrometheusText.Sample>> samples = new LinkedHashMap<>();
        for (PlatformState.Instance instance : platform.instances()) {
            if (ReplicaShare.service(instance.name()).equals("scheduler-service")) {
                String body = ReplicaShare.fetch(scraper, instance.url() + "/q/metrics");
                if (body != null) {
                    samples.put(instance.name(), PrometheusText.parse(body));
                }
            }
        }
        return samples;
    }

    /**
     * Each process's CPU (percent of one core) and largest RSS (MiB) over one window.
     *
     * @param cpuPercent by process
     * @param rssMb by process
     */
    private record Usage(Map<String, Double> cpuPercent, Map<String, Double> rssMb) {

        /** One row per process of this (idle) window beside {@code loaded}, in this window's order. */
        List<ScheduleTicks.ProcessUse> against(Usage loaded) {
            Set<String> processes = new java.util.LinkedHashSet<>(cpuPercent.keySet());
            processes.addAll(rssMb.keySet());
            processes.addAll(loaded.cpuPercent.keySet());
            processes.addAll(loaded.rssMb.keySet());
            return processes.stream().map(p -> new ScheduleTicks.ProcessUse(p,
                    cpuPercent.getOrDefault(p, Double.NaN), loaded.cpuPercent.getOrDefault(p, Double.NaN),
                    rssMb.getOrDefault(p, Double.NaN), loaded.rssMb.getOrDefault(p, Double.NaN))).toList();
        }
    }

    /** Measures {@link #usage} of every platform process for {@code window}. */
    private Usage usage(Duration window) {
        List<SampledProcess> processes = platform.sampledProcesses();
        try (ResourceSampler sampler = new ResourceSampler(processes).start()) {
            long fromMs = System.currentTimeMillis();
            Map<String, Map<Long, Long>> before = IdleCpu.ticks(processes);
            long t0 = System.nanoTime();
            sleep(window.toMillis());
            Map<String, Map<Long, Long>> after = IdleCpu.ticks(processes);
            Map<String, Double> cpu = new LinkedHashMap<>();
            // IdleCpu's ms of CPU per second of wall time, a tenth of which is the percent of one core
            IdleCpu.rates(before, after, System.nanoTime() - t0).forEach((p, ms) -> cpu.put(p, ms / 10));
            Map<String, Double> rss = new LinkedHashMap<>();
            ResourceSummary.of(sampler.samples(), fromMs, System.currentTimeMillis())
                    .forEach(s -> rss.put(s.process(), s.maxRssMb()));
            return new Usage(cpu, rss);
        }
    }

    private String workerNote(String note, Observed run) {
        List<String> parts = new java.util.ArrayList<>();
        if (!note.isEmpty()) {
            parts.add(note);
        }
        if (run.probe() != null) {
            noteProblem(parts, "the freshness probe stopped early, so few or no status freshness figures",
                    run.probe().problem());
        }
        noteProblem(parts, WORKER_UNREAD, db.workerProblem());
        noteProblem(parts, "job_executions unreadable, so no scheduler stages", db.schedulerProblem());
        return String.join("; ", parts);
    }

    /** What a workload could not read without its runs, naming the figures it lacks. */
    static final String WORKER_UNREAD = "execution_attempts unreadable, so no start times and no duplicate check";

    /** Adds {@code consequence: problem} to {@code notes} when there is a {@code problem} (not null). */
    static void noteProblem(List<String> notes, String consequence, String problem) {
        if (problem != null) {
            notes.add(consequence + ": " + problem);
        }
    }

    private static String note(Submission submission, String note) {
        if (submission.accepted() == 0 && submission.rejected() > 0) {
            String refused = "the API accepted none of " + submission.offered() + " jobs";
            return note.isEmpty() ? refused : note + "; " + refused;
        }
        return note;
    }
}
