package dev.jobweaver.bench;

import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.local.Cli;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code jobweaver bench}: its command line, which {@link #options()} turns into {@link BenchOptions}. */
@Command(name = "bench", commandListHeading = "%nCommands:%n",
        header = "Measure a platform started by `jobweaver up`: throughput, latency, CPU, memory, correctness.",
        description = {
            "Runs the named workloads in their fixed order; none named: the first four. Prints the figures beside the "
                    + "targets and writes the raw figures and report.html to a folder (docs/benchmark.md).",
            "",
            "Workloads:",
            "  burst         N no-op jobs as fast as the API takes them, per --concurrency",
            "  steady        fixed offered rate (--rate) for --duration, open loop: latency",
            "  sleepers      like burst, 5%% of the jobs sleep 5 s: no-op jobs/s vs burst",
            "  retries       like burst, 10%% of the jobs fail once and pass on their retry",
            "  priorities    like burst, 60%% HIGH, 30%% NORMAL, 10%% LOW: start per level",
            "  delayed       no-op jobs, each with a delayMs of seconds: how late they start",
            "  delayed-idle  idle CPU without and with --idle-rows future jobs (not via API)",
            "  cancel        waiting and running jobs cancelled: to CANCELLED, to stopped",
            "  notify        jobs subscribed to COMPLETED: finish to signed webhook received",
            "  schedules     interval schedules: ticks fired vs due, lag, scheduler cost",
            "  workflow      100-node fan-out: start to fan-in; 5-node diamonds: runs/s",
            "  limits        burst under a limit that does not bind, then one that binds",
            "  mixed         burst with keys, a tenant limit, workflow runs: jobs/s vs burst",
            "  queues        burst to queues default and bench (up --pool bench): isolation",
            "  purge         --jobs finished jobs (1000000) purged by retention during steady"},
        footer = {"Durations: 30s, 2m, 500ms, 1h; a bare number is seconds.",
            "Exit status: 0 when every accepted job ended as expected (targets are reported, never asserted); 1 when a "
                    + "job was lost, duplicated or ended unexpectedly, or a workload failed; 2 for bad usage or a "
                    + "platform that is not up."})
public final class BenchCommand implements Callable<Integer> {

    @Mixin
    Cli.HelpOption help;

    @Spec
    CommandSpec spec;

    // Names, checked in options(): picocli leaves a value a variable-arity parameter cannot convert unmatched, and
    // "Unmatched argument: 'storm'" would not say which workloads there are.
    @Parameters(paramLabel = "WORKLOAD", arity = "0..*",
            description = "burst, steady, sleepers, retries, priorities, delayed, delayed-idle, cancel, notify, "
                    + "schedules, workflow, limits, mixed, queues or purge (default: the first four).")
    List<String> workloads = new ArrayList<>();

    @Option(names = "--jobs", paramLabel = "N", defaultValue = "20000", converter = PositiveWholeNumber.class,
            description = "Jobs per burst, sleepers, retries and priorities run (default: ${DEFAULT-VALUE}); purge: "
                    + "finished jobs seeded (default: " + BenchOptions.PURGE_JOBS + ").")
    int jobs;

    // The targets are stated for a client with 64 connections (Targets.BURST_CONCURRENCY). A list runs the burst once
    // per value, for the throughput and latency a client of each size gets; the API answers a connection's requests in
    // order, so the connections in flight are what a client of that size offers.
    @Option(names = "--concurrency", paramLabel = "C,...", hideParamSyntax = true, split = ",", defaultValue = "64",
            converter = PositiveWholeNumber.class,
            description = "Requests in flight at most during burst-like submission, one connection each; a list "
                    + "(1,16,64,256) runs the burst once per value, at most " + BenchOptions.JOBS_PER_CONNECTION
                    + " jobs per connection (default: ${DEFAULT-VALUE}).")
    List<Integer> concurrency;

    @Option(names = "--rate", paramLabel = "R", defaultValue = "100", converter = PositiveNumber.class,
            description = "steady: offered jobs per second (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--duration", paramLabel = "D", defaultValue = "30s", converter = PositiveDuration.class,
            description = "steady: how long the rate is offered and measured (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--baseline", paramLabel = "J", converter = PositiveNumber.class,
            description = "sleepers, priorities: burst throughput in jobs/s to compare with, when burst is not run "
                    + "(default: none).")
    double baseline = Double.NaN;

    @Option(names = "--warmup", paramLabel = "N|auto", defaultValue = "auto", converter = WarmupJobs.class,
            description = "No-op jobs run first and not reported. auto (default): rounds of " + WarmUp.ROUND_JOBS
                    + " until no platform JVM (services, Kafka) used " + WarmUp.SETTLED_JIT_SECONDS
                    + " s of JIT CPU in a round, at most " + WarmUp.MAX_ROUNDS + " rounds; 0: none.")
    int warmup;

    @Option(names = "--settle", paramLabel = "D", defaultValue = "20s", converter = SettleDuration.class,
            description = "steady: the rate is offered for D first, unreported, while the platform compiles for "
                    + "the new load (default: ${DEFAULT-VALUE}; 0: none).")
    Duration settle;

    @Option(names = "--timeout", paramLabel = "D", defaultValue = "120s", converter = PositiveDuration.class,
            description = "Give up on the open jobs after D without any new completion (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--delayed-jobs", paramLabel = "N", defaultValue = "2000",
            converter = PositiveWholeNumber.class,
            description = "delayed: jobs sent (default: ${DEFAULT-VALUE}).")
    int delayedJobs;

    @Option(names = "--delayed-over", paramLabel = "D", defaultValue = "20s", converter = PositiveDuration.class,
            description = "delayed: the jobs are sent evenly over D, open loop (default: ${DEFAULT-VALUE}).")
    Duration delayedOver;

    @Option(names = "--delay-min", paramLabel = "D", defaultValue = "2s", converter = SettleDuration.class,
            description = "delayed: the shortest delayMs a job is sent with (default: ${DEFAULT-VALUE}).")
    Duration delayMin;

    @Option(names = "--delay-max", paramLabel = "D", defaultValue = "8s", converter = SettleDuration.class,
            description = "delayed: the longest; delays are spread evenly from --delay-min to it "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration delayMax;

    @Option(names = "--idle-rows", paramLabel = "K", defaultValue = "1000000",
            converter = PositiveWholeNumber.class,
            description = "delayed-idle: PENDING rows due in a day put into the scheduler's table "
                    + "(default: ${DEFAULT-VALUE}).")
    int idleRows;

    @Option(names = "--idle-window", paramLabel = "D", defaultValue = "30s", converter = PositiveDuration.class,
            description = "delayed-idle: how long CPU is measured without the rows, and again with them "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration idleWindow;

    @Option(names = "--cancel-jobs", paramLabel = "N", defaultValue = "400", converter = PositiveWholeNumber.class,
            description = "cancel: jobs cancelled, half waiting (delayMs 60 s), half running (a 30 s sleep) "
                    + "(default: ${DEFAULT-VALUE}).")
    int cancelJobs;

    @Option(names = "--notify-jobs", paramLabel = "N", defaultValue = "10000", converter = PositiveWholeNumber.class,
            description = "notify: jobs submitted, each subscribed to its COMPLETED webhook (default: "
                    + "${DEFAULT-VALUE}).")
    int notifyJobs;

    @Option(names = "--schedules", paramLabel = "N", defaultValue = "10000", converter = PositiveWholeNumber.class,
            description = "schedules: interval schedules created, each ticking every 60 s (default: ${DEFAULT-VALUE}).")
    int schedules;

    @Option(names = "--schedule-window", paramLabel = "D", defaultValue = "120s", converter = PositiveDuration.class,
            description = "schedules: how long their ticks are measured, after an idle window as long "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration scheduleWindow;

    @Option(names = "--workflow-runs", paramLabel = "N", defaultValue = "20", converter = PositiveWholeNumber.class,
            description = "workflow: runs of the 100-node fan-out, one after another (default: ${DEFAULT-VALUE}).")
    int workflowRuns;

    @Option(names = "--diamond-runs", paramLabel = "N", defaultValue = "2000", converter = PositiveWholeNumber.class,
            description = "workflow: runs of the 5-node diamond, --concurrency requests in flight (default: "
                    + "${DEFAULT-VALUE}).")
    int diamondRuns;

    @Option(names = "--limits-burst", paramLabel = "N", defaultValue = "2048",
            converter = PositiveWholeNumber.class,
            description = "limits: the tenant's maxRunning during its burst, a limit that does not bind "
                    + "(default: ${DEFAULT-VALUE}).")
    int limitsBurst;

    @Option(names = "--limits-binding", paramLabel = "N", defaultValue = "5", converter = PositiveWholeNumber.class,
            description = "limits: the tenant's maxRunning for its sleeping jobs, a limit that binds "
                    + "(default: ${DEFAULT-VALUE}).")
    int limitsBinding;

    @Option(names = "--limits-jobs", paramLabel = "N", defaultValue = "200", converter = PositiveWholeNumber.class,
            description = "limits: jobs sleeping " + JobKind.SHORT_SLEEP_MS + " ms under --limits-binding (default: "
                    + "${DEFAULT-VALUE}).")
    int limitsJobs;

    @Option(names = "--home", paramLabel = "DIR",
            description = "The platform's home, where `jobweaver up` describes it in platform.properties "
                    + "(default: .jobweaver).")
    Path home;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where to write the figures (default: HOME/bench/<UTC time of the run>).")
    Path out;

    private final Path cwd;
    private final PrintStream console;

    /**
     * @param cwd what relative {@code --home} and {@code --out} resolve against
     * @param console where the progress and the report go
     */
    public BenchCommand(Path cwd, PrintStream console) {
        this.cwd = cwd;
        this.console = console;
    }

    /** Parses {@code args} (everything after {@code bench}) without running anything; bad usage throws. */
    static BenchOptions parse(List<String> args, Path cwd) {
        BenchCommand command = new BenchCommand(cwd, System.out);
        new CommandLine(command).parseArgs(args.toArray(String[]::new));
        return command.options();
    }

    /** What the command line asks for, with paths resolved; an unknown workload is bad usage. */
    BenchOptions options() {
        Set<Workload> selected = EnumSet.noneOf(Workload.class);
        for (String name : workloads) {
            try {
                selected.add(Workload.named(name));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        if (selected.isEmpty()) {
            selected = EnumSet.copyOf(Workload.defaults());
        }
        if (delayMax.compareTo(delayMin) < 0) {
            throw new ParameterException(spec.commandLine(), "--delay-max (" + delayMax.toMillis()
                    + " ms) must not be shorter than --delay-min (" + delayMin.toMillis() + " ms)");
        }
        requireApiLimit("--limits-burst", limitsBurst);
        requireApiLimit("--limits-binding", limitsBinding);
        return new BenchOptions(selected, jobs, concurrency, rate, duration, baseline, warmup, settle, timeout,
                home == null ? cwd.resolve(".jobweaver") : cwd.resolve(home).normalize(),
                out == null ? null : cwd.resolve(out).normalize(), delayedJobs, delayedOver, delayMin, delayMax,
                idleRows, idleWindow, cancelJobs, notifyJobs, schedules, scheduleWindow, workflowRuns, diamondRuns,
                limitsBurst, limitsBinding, limitsJobs, jobsGiven() ? jobs : BenchOptions.PURGE_JOBS);
    }

    /** Whether the command line named {@code --jobs}: the purge seeds a million jobs unless it did. */
    private boolean jobsGiven() {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        return parsed != null && parsed.hasMatchedOption("--jobs");
    }

    /** A tenant limit the API takes, or bad usage naming {@code option}. */
    private void requireApiLimit(String option, int value) {
        if (value > TenantLimitEvent.MAX_RUNNING) {
            throw new ParameterException(spec.commandLine(), option + " (" + value + ") must be at most "
                    + TenantLimitEvent.MAX_RUNNING + ", the largest maxRunning the API takes");
        }
    }

    @Override
    public Integer call() {
        return Bench.run(options(), console);
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    /** {@code 30s}, {@code 2m}, {@code 500ms}, {@code 1h}; a bare number means seconds; may be zero. */
    static Duration duration(String raw) {
        Matcher m = DURATION.matcher(raw.strip());
        if (!m.matches()) {
            throw new TypeConversionException("'" + raw + "' is not a duration such as 30s, 2m or 500ms");
        }
        double amount = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis = switch (unit) {
            case "ms" -> amount;
            case "s" -> amount * 1_000;
            case "m" -> amount * 60_000;
            default -> amount * 3_600_000;
        };
        return Duration.ofMillis(Math.round(millis));
    }

    /** A duration above zero. */
    public static final class PositiveDuration implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String raw) {
            Duration d = duration(raw);
            if (d.isZero()) {
                throw new TypeConversionException("'" + raw + "' is not a positive duration");
            }
            return d;
        }
    }

    /** {@code --settle}, {@code --delay-min}, {@code --delay-max}: a duration, which may be 0. */
    static final class SettleDuration implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String raw) {
            return duration(raw);
        }
    }

    /** A number above zero, e.g. {@code 100} or {@code 2.5}. */
    public static final class PositiveNumber implements ITypeConverter<Double> {
        @Override
        public Double convert(String raw) {
            return positive(raw);
        }
    }

    /** A whole number above zero; {@code 2e4} is 20000. */
    static final class PositiveWholeNumber implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String raw) {
            return whole(raw, positive(raw));
        }
    }

    /** {@code auto} ({@link BenchOptions#AUTO_WARMUP}) or a whole number of at least 0. */
    static final class WarmupJobs implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String raw) {
            if ("auto".equals(raw.strip())) {
                return BenchOptions.AUTO_WARMUP;
            }
            double n = number(raw);
            if (n < 0) {
                throw new TypeConversionException("'" + raw + "' is neither auto nor a number of at least 0");
            }
            return whole(raw, n);
        }
    }

    private static double number(String raw) {
        try {
            double n = Double.parseDouble(raw.strip());
            if (Double.isFinite(n)) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new TypeConversionException("'" + raw + "' is not a number");
    }

    private static double positive(String raw) {
        double n = number(raw);
        if (n <= 0) {
            throw new TypeConversionException("'" + raw + "' is not a positive number");
        }
        return n;
    }

    private static int whole(String raw, double n) {
        if (n != Math.rint(n) || n > Integer.MAX_VALUE) {
            throw new TypeConversionException("'" + raw + "' is not a whole number");
        }
        return (int) n;
    }
}
