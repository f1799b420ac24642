package dev.jobweaver.local.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What `./jobweaver bench` was asked to do.
 *
 * @param workloads the selected workloads (all when none is named)
 * @param jobs jobs per burst, sleepers and retries run
 * @param concurrency requests in flight at most during burst-like submission
 * @param rate offered jobs per second of the steady workload
 * @param duration how long the steady workload offers load
 * @param baseline burst throughput (jobs/s) to compare sleepers with when burst is not run; NaN if none
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
 * @param help whether only the usage was asked for
 */
public record BenchOptions(Set<Workload> workloads, int jobs, int concurrency, double rate, Duration duration,
                           double baseline, int warmup, Duration settle, Duration timeout, Path home, Path out, boolean help) {

    /** {@code --warmup auto}: rounds of no-op jobs until the platform's JIT compilers have settled. */
    public static final int AUTO_WARMUP = -1;

    /** The usage text. */
    public static final String USAGE = """
            usage: jobweaver bench [burst] [steady] [sleepers] [retries] [options]
              runs against a platform started by `./jobweaver up`; no workload named: all four, in that order
              burst      N no-op jobs submitted as fast as the API takes them (bounded concurrency)
              steady     a fixed offered rate for a duration, open loop: latency percentiles
              sleepers   like burst, 5% of the jobs sleep 5 s: no-op throughput against burst
              retries    like burst, 10% of the jobs fail once and pass on retry (FAIL step with "times")
            options:
              --jobs N           jobs per burst, sleepers and retries run (default 20000)
              --concurrency C    requests in flight during burst-like submission (default 256)
              --rate R           steady: offered jobs per second (default 100)
              --duration D       steady: how long, e.g. 30s, 2m, 500ms (default 30s)
              --baseline J       sleepers: burst throughput in jobs/s to compare with, when burst is not run
              --warmup N|auto    no-op jobs run first and not reported; auto (default): rounds of 2000 until
                                 no platform JVM (services, Kafka) used 0.1 s of JIT CPU in a round, at most
                                 10; 0: none
              --settle D         steady: the rate is offered for D first, unreported (default 20s; 0: none)
              --timeout D        give up on open jobs after D without any new completion (default 120s)
              --home DIR         the platform's home (default .jobweaver)
              --out DIR          where to write the figures (default <home>/bench/<timestamp>)
            """;

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");

    /** Parses the command line (everything after {@code bench}); relative paths resolve against {@code cwd}. */
    public static BenchOptions parse(List<String> args, Path cwd) {
        Deque<String> rest = new ArrayDeque<>(args);
        Set<Workload> workloads = EnumSet.noneOf(Workload.class);
        int jobs = 20_000;
        // With 128 in flight the client was the bound: every request waits for its group's insert and Kafka
        // acknowledgement, so 128 of them gave about 2,100 jobs/s with an eighth of the CPU idle; 256 keep the API
        // busy (docs/benchmark.md, "Session 8").
        int concurrency = 256;
        double rate = 100;
        Duration duration = Duration.ofSeconds(30);
        double baseline = Double.NaN;
        int warmup = AUTO_WARMUP;
        Duration settle = Duration.ofSeconds(20);
        Duration timeout = Duration.ofSeconds(120);
        Path home = cwd.resolve(".jobweaver");
        Path out = null;
        boolean help = false;
        while (!rest.isEmpty()) {
            String arg = rest.pop();
            switch (arg) {
                case "-h", "--help" -> help = true;
                case "--jobs" -> jobs = whole(arg, positive(arg, rest));
                case "--concurrency" -> concurrency = whole(arg, positive(arg, rest));
                case "--rate" -> rate = positive(arg, rest);
                case "--duration" -> duration = duration(arg, value(arg, rest));
                case "--baseline" -> baseline = positive(arg, rest);
                case "--warmup" -> {
                    if ("auto".equals(rest.peek())) {
                        rest.pop();
                        warmup = AUTO_WARMUP;
                    } else {
                        warmup = whole(arg, atLeastZero(arg, rest));
                    }
                }
                case "--settle" -> {
                    String raw = value(arg, rest);
                    settle = raw.trim().matches("0+(\\.0*)?(ms|s|m|h)?") ? Duration.ZERO : duration(arg, raw);
                }
                case "--timeout" -> timeout = duration(arg, value(arg, rest));
                case "--home" -> home = cwd.resolve(value(arg, rest)).normalize();
                case "--out" -> out = cwd.resolve(value(arg, rest)).normalize();
                default -> {
                    if (arg.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + arg);
                    }
                    workloads.add(Workload.named(arg));
                }
            }
        }
        if (workloads.isEmpty()) {
            workloads = EnumSet.allOf(Workload.class);
        }
        return new BenchOptions(workloads, jobs, concurrency, rate, duration, baseline, warmup, settle, timeout, home, out, help);
    }

    /** {@code 30s}, {@code 2m}, {@code 500ms}, {@code 1h}; a bare number means seconds. */
    public static Duration duration(String option, String raw) {
        Matcher m = DURATION.matcher(raw.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " needs a duration such as 30s, 2m or 500ms, not '" + raw + "'");
        }
        double amount = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double millis = switch (unit) {
            case "ms" -> amount;
            case "s" -> amount * 1_000;
            case "m" -> amount * 60_000;
            default -> amount * 3_600_000;
        };
        if (millis <= 0) {
            throw new IllegalArgumentException(option + " must be positive, not '" + raw + "'");
        }
        return Duration.ofMillis(Math.round(millis));
    }

    private static String value(String option, Deque<String> rest) {
        if (rest.isEmpty()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return rest.pop();
    }

    private static double positive(String option, Deque<String> rest) {
        double n = number(option, rest.isEmpty() ? null : rest.peek());
        rest.pop();
        if (n <= 0) {
            throw new IllegalArgumentException(option + " needs a positive number, not '" + format(n) + "'");
        }
        return n;
    }

    private static double atLeastZero(String option, Deque<String> rest) {
        double n = number(option, rest.isEmpty() ? null : rest.peek());
        rest.pop();
        if (n < 0) {
            throw new IllegalArgumentException(option + " needs a number of at least 0, not '" + format(n) + "'");
        }
        return n;
    }

    private static double number(String option, String raw) {
        if (raw == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        try {
            return Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, not '" + raw + "'");
        }
    }

    private static int whole(String option, double n) {
        if (n != Math.rint(n) || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(option + " needs a whole number, not '" + format(n) + "'");
        }
        return (int) n;
    }

    private static String format(double n) {
        return n == Math.rint(n) ? Long.toString((long) n) : Double.toString(n);
    }
}
