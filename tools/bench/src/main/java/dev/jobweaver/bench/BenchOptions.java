package dev.jobweaver.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What `./jobweaver bench` was asked to do.
 *
 * @param workloads the selected workloads (all when none is named)
 * @param jobs jobs per burst, sleepers, retries and priorities run, at most {@link #JOBS_PER_CONNECTION} per connection
 *             ({@link #jobsAt})
 * @param concurrencies the requests in flight at most during burst-like submission, one connection each, in increasing
 *                      order without repeats: the burst runs once per value, sleepers, retries and the warm-up at
 *                      {@link #concurrency()}
 * @param rate offered jobs per second of the steady workload
 * @param duration how long the steady workload offers load
 * @param baseline burst throughput (jobs/s) to compare sleepers and priorities with when burst is not run; NaN if
 *                 none
 * @param warmup no-op jobs run (and not reported) before the first workload, at the burst's concurrency; every one
 *               has finished before the first workload starts, so the platform starts it idle. {@link #AUTO_WARMUP}:
 *               rounds until the platform's JIT has settled ({@link WarmUp}). At least one round also warms the
 *               bench, a fresh JVM each time: with 200 jobs its own code was still being compiled during the first
 *               seconds of a burst, which then submitted at 1,100-1,300 jobs/s instead of 1,800-2,000
 * @param settle how long steady offers its rate, unreported, before the measured run: a platform's first seconds of
 *               a new load shape are spent compiling (the services' JIT, the broker's C2), which a burst of warm-up
 *               jobs does not cover, since at a low rate every record takes the per-record paths; zero: none
 * @param timeout how long to wait without any new completion before declaring the open jobs lost
 * @param home the platform's home folder (holds platform.properties)
 * @param out where to write the figures; null: {@code <home>/bench/<timestamp>}
 * @param delayedJobs jobs the delayed workload sends
 * @param delayedOver how long it sends them over, evenly (open loop at {@code delayedJobs / delayedOver} per second)
 * @param minDelay the shortest {@code delayMs} a delayed job is sent with
 * @param maxDelay the longest; delays are spread evenly between the two ({@link Control#spreadDelay})
 * @param idleRows future rows the delayed-idle workload puts into the scheduler's table
 * @param idleWindow how long delayed-idle measures CPU, without the rows and again with them
 * @param cancelJobs jobs the cancel workload submits and cancels: half of them waiting ({@link #cancelWaiting}), half
 *                   running ({@link #cancelRunning})
 * @param notifyJobs jobs the notify workload submits, each with a subscription to its COMPLETED event
 * @param schedules interval schedules the schedules workload creates
 * @param scheduleWindow how long the schedules workload measures their ticks, and the idle window before them
 * @param workflowRuns runs of the workflow workload's fan-out, one after another
 * @param diamondRuns runs of its 5-node diamond, {@link #concurrency()} requests in flight
 * @param limitsBurst the limits workload's tenant limit during its burst: one that does not bind
 * @param limitsBinding its tenant limit under which its sleeping jobs run: one that binds
 * @param limitsJobs its sleeping jobs run under {@code limitsBinding}
 * @param purgeJobs finished jobs the purge workload seeds into each database ({@code --jobs}, else
 *                  {@link #PURGE_JOBS})
 */
public record BenchOptions(Set<Workload> workloads, int jobs, List<Integer> concurrencies, double rate,
                           Duration duration, double baseline, int warmup, Duration settle, Duration timeout, Path home,
                           Path out, int delayedJobs, Duration delayedOver, Duration minDelay, Duration maxDelay,
                           int idleRows, Duration idleWindow, int cancelJobs, int notifyJobs, int schedules,
                           Duration scheduleWindow, int workflowRuns, int diamondRuns, int limitsBurst,
                           int limitsBinding, int limitsJobs, long purgeJobs) {

    /** {@code --warmup auto}: rounds of no-op jobs until the platform's JIT compilers have settled. */
    public static final int AUTO_WARMUP = -1;

    /**
     * Jobs a burst-like run submits per connection at most. One connection sends a job when its previous one was
     * answered, so at a few milliseconds an answer 20,000 jobs from one connection would take a minute or more; 500
     * take a few seconds and are plenty for a median and a 99th percentile.
     */
    public static final int JOBS_PER_CONNECTION = 500;

    /** Delayed: jobs sent by default. */
    public static final int DELAYED_JOBS = 2_000;
    /** Delayed: sent over this long by default, 100 a second: a rate the API answers at once. */
    public static final Duration DELAYED_OVER = Duration.ofSeconds(20);
    /** Delayed: the shortest delay by default. */
    public static final Duration MIN_DELAY = Duration.ofSeconds(2);
    /** Delayed: the longest delay by default. */
    public static final Duration MAX_DELAY = Duration.ofSeconds(8);
    /** Delayed-idle: future rows by default. */
    public static final int IDLE_ROWS = 1_000_000;
    /** Delayed-idle: each measurement window by default. */
    public static final Duration IDLE_WINDOW = Duration.ofSeconds(30);
    /** Cancel: jobs by default, 200 waiting and 200 running: a one-worker platform runs all 200 at once. */
    public static final int CANCEL_JOBS = 400;
    /** Notify: jobs by default, each with its own subscription. */
    public static final int NOTIFY_JOBS = 10_000;
    /** Schedules: schedules by default, ticking once a minute each: 10,000 jobs a minute. */
    public static final int SCHEDULES = 10_000;
    /** Schedules: the measured window by default, two ticks of each schedule. */
    public static final Duration SCHEDULE_WINDOW = Duration.ofSeconds(120);
    /** Workflow: fan-out runs by default, enough for a p99 of 20 values to be their largest. */
    public static final int WORKFLOW_RUNS = 20;
    /** Workflow: diamond runs by default, 10,000 node jobs. */
    public static final int DIAMOND_RUNS = 2_000;
    /**
     * Limits: the tenant limit during the burst by default, the scheduler's own default
     * {@code dispatch.max-in-flight}: at least the worker's slots ({@code jobweaver.worker.max-in-flight}, 1,000), and
     * a tenant alone on the platform reaches it only where that cap stops every job anyway.
     */
    public static final int LIMITS_BURST = 2_048;
    /** Limits: the limit that binds by default. */
    public static final int LIMITS_BINDING = 5;
    /** Limits: sleeping jobs under it by default, 8 s of work at the ideal rate. */
    public static final int LIMITS_JOBS = 200;
    /** The purge workload's seeded jobs when {@code --jobs} is not given: the requirement's million. */
    public static final long PURGE_JOBS = 1_000_000;

    /** The concurrencies sorted, without repeats; at least one; the delay range not empty. */
    public BenchOptions {
        if (concurrencies == null || concurrencies.isEmpty()) {
            throw new IllegalArgumentException("at least one concurrency");
        }
        concurrencies = concurrencies.stream().distinct().sorted().toList();
        if (maxDelay.compareTo(minDelay) < 0) {
            throw new IllegalArgumentException("--delay-max (" + maxDelay.toMillis() + " ms) is shorter than "
                    + "--delay-min (" + minDelay.toMillis() + " ms)");
        }
    }

    /** The delayed workload's send schedule: {@link #delayedJobs} evenly over {@link #delayedOver}. */
    public RateSchedule delayedSchedule() {
        return new RateSchedule(delayedJobs * 1e9 / delayedOver.toNanos(), delayedOver);
    }

    /** Cancel: the waiting jobs, half of {@link #cancelJobs} rounded up. */
    public int cancelWaiting() {
        return cancelJobs - cancelRunning();
    }

    /** Cancel: the running jobs, half of {@link #cancelJobs} rounded down. */
    public int cancelRunning() {
        return cancelJobs / 2;
    }

    /**
     * The options a {@code bench} command line asks for ({@link BenchCommand}, everything after {@code bench});
     * relative paths resolve against {@code cwd}. Bad usage throws picocli's {@code ParameterException}, whose
     * message names the option.
     */
    public static BenchOptions parse(List<String> args, Path cwd) {
        return BenchCommand.parse(args, cwd);
    }

    /**
     * The concurrency of every burst-like run but the extra bursts: the targets' client
     * ({@link Targets#BURST_CONCURRENCY}) when it is listed, else the largest listed. Sleepers, retries, priorities
     * and the warm-up run at it, and sleepers and priorities compare themselves with the burst at it.
     */
    public int concurrency() {
        return concurrencies.contains(Targets.BURST_CONCURRENCY) ? Targets.BURST_CONCURRENCY
                : concurrencies.getLast();
    }

    /** The jobs a burst-like run at {@code concurrency} submits: {@link #jobs}, at most 500 per connection. */
    public int jobsAt(int concurrency) {
        return (int) Math.min(jobs, (long) JOBS_PER_CONNECTION * concurrency);
    }

    /**
     * One measured run: a workload at a concurrency, under the name the reports give it.
     *
     * @param workload which
     * @param concurrency requests in flight at most; 0 for steady and delayed, whose rate sets the load, and for
     *                    delayed-idle, which submits nothing; {@link Cancels#CONCURRENCY} for cancel,
     *                    {@link Notifications#CONCURRENCY} for notify, {@link ScheduleTicks#CONCURRENCY} for schedules
     * @param label {@code burst c=16} when the burst runs at several concurrencies, else the workload's name
     */
    public record Run(Workload workload, int concurrency, String label) {

        /** The run's name in file names: {@code burst-c16}. */
        public String fileStem() {
            return label.replace(" c=", "-c");
        }
    }

    /** The runs, in order: the selected workloads in their fixed order, the burst once per concurrency. */
    public List<Run> runs() {
        List<Run> runs = new ArrayList<>();
        for (Workload workload : workloads) {
            switch (workload) {
                case BURST -> concurrencies.forEach(c -> runs.add(new Run(workload, c,
                        concurrencies.size() == 1 ? workload.cliName() : workload.cliName() + " c=" + c)));
                case STEADY, DELAYED, DELAYED_IDLE -> runs.add(new Run(workload, 0, workload.cliName()));
                case CANCEL -> runs.add(new Run(workload, Cancels.CONCURRENCY, workload.cliName()));
                case NOTIFY -> runs.add(new Run(workload, Notifications.CONCURRENCY, workload.cliName()));
                case SCHEDULES -> runs.add(new Run(workload, ScheduleTicks.CONCURRENCY, workload.cliName()));
                default -> runs.add(new Run(workload, concurrency(), workload.cliName()));
            }
        }
        return List.copyOf(runs);
    }
}
