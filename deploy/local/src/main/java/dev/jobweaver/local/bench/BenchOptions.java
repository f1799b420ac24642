package dev.jobweaver.local.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

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
 */
public record BenchOptions(Set<Workload> workloads, int jobs, int concurrency, double rate, Duration duration,
                           double baseline, int warmup, Duration settle, Duration timeout, Path home, Path out) {

    /** {@code --warmup auto}: rounds of no-op jobs until the platform's JIT compilers have settled. */
    public static final int AUTO_WARMUP = -1;

    /**
     * The options a {@code bench} command line asks for ({@link BenchCommand}, everything after {@code bench});
     * relative paths resolve against {@code cwd}. Bad usage throws picocli's {@code ParameterException}, whose
     * message names the option.
     */
    public static BenchOptions parse(List<String> args, Path cwd) {
        return BenchCommand.parse(args, cwd);
    }
}
