package dev.jobweaver.local.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
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
        try (ApiClient client = new ApiClient(api.baseUrl(), concurrency)) {
            return observe(label, count, measured,
                    (sink, progress) -> new Submitter(client).burst(count, concurrency, kinds, sink, progress));
        }
    }

    /** How a run sends its jobs, handing each accepted one to the sink. */
    @FunctionalInterface
    private interface Sending {
        Submission send(Consumer<Accepted> sink, Progress progress);
    }

    /**
     * Sends {@code count} jobs by {@code sending} and waits until every accepted job ended (or the stall timeout);
     * a measured run also has its jobs' freshness timed.
     */
    private Observed observe(String label, int count, boolean measured, Sending sending) {
        ReplicaShare.Snapshot before = measured ? counters.get() : ReplicaShare.Snapshot.NONE;
        Progress progress = new Progress(label, count, out, terminal);
        CompletionWatcher watcher = new CompletionWatcher(db, progress, options.timeout()).start();
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
        return observe(label, schedule.count(), measured,
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
