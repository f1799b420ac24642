package dev.jobweaver.bench;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU each completed job of one workload cost, by process, over the workload's throughput window (first
 * submission to last completion), and the completions per second that cost allows with every core busy.
 *
 * <p>Why it is printed: on a shared machine a burst's jobs/s follows the machine's speed of the moment (on 2026-11-25
 * the same warm platform took 1.11 and then 1.88 ms of CPU a job, eight minutes apart). The cost per job and
 * the ceiling it implies tell a slow machine (every process costlier, throughput near the ceiling) from a platform
 * that waits (throughput well under the ceiling), and show which process a job's CPU goes to.
 *
 * <p>How: each reading's CPU covers the time since that process's previous reading; the part of that interval inside
 * the window counts, pro rata. A reading without a figure (the first, or after a restart) counts nothing.
 *
 * @param msByProcess CPU milliseconds per completed job, by process, in the order the readings first name them
 * @param platformMs the platform's processes together (services, broker, PostgreSQL), without the bench
 * @param benchMs the load generator's own share ({@link Bench#SELF})
 * @param ceilingJobsPerSecond {@code cores × 1000 / (platformMs + benchMs)}: completions per second on this machine
 *                             at this cost with every core busy; NaN when nothing completed or nothing was read
 */
public record CpuPerJob(Map<String, Double> msByProcess, double platformMs, double benchMs,
                        double ceilingJobsPerSecond) {

    /** No figure: the workload completed nothing, or no reading fell in its window. */
    public static final CpuPerJob NONE = new CpuPerJob(Map.of(), Double.NaN, Double.NaN, Double.NaN);

    public CpuPerJob {
        msByProcess = Collections.unmodifiableMap(new LinkedHashMap<>(msByProcess));
    }

    /** The cost per job of {@code completed} jobs over {@code [fromMs, toMs]}, on a machine of {@code cores}. */
    public static CpuPerJob of(List<ResourceSample> samples, long fromMs, long toMs, int completed, int cores) {
        if (completed <= 0 || toMs <= fromMs) {
            return NONE;
        }
        Map<String, Long> previousMs = new HashMap<>();
        Map<String, Double> cpuSeconds = new LinkedHashMap<>();
        for (ResourceSample s : samples) {
            Long previous = previousMs.put(s.process(), s.epochMs());
            if (previous == null || Double.isNaN(s.cpuPercent()) || s.epochMs() <= previous) {
                continue;
            }
            long overlapMs = Math.min(s.epochMs(), toMs) - Math.max(previous, fromMs);
            if (overlapMs > 0) {
                cpuSeconds.merge(s.process(), s.cpuPercent() / 100.0 * overlapMs / 1000.0, Double::sum);
            }
        }
        if (cpuSeconds.isEmpty()) {
            return NONE;
        }
        Map<String, Double> ms = new LinkedHashMap<>();
        double platform = 0;
        double bench = 0;
        for (Map.Entry<String, Double> e : cpuSeconds.entrySet()) {
            double perJob = e.getValue() * 1000.0 / completed;
            ms.put(e.getKey(), perJob);
            if (e.getKey().equals(Bench.SELF)) {
                bench += perJob;
            } else {
                platform += perJob;
            }
        }
        double total = platform + bench;
        return new CpuPerJob(ms, platform, bench, total > 0 ? cores * 1000.0 / total : Double.NaN);
    }

    /** The cost of {@code result}'s completed jobs over its throughput window; {@link #NONE} when it has none. */
    public static CpuPerJob of(List<ResourceSample> samples, WorkloadResult result, int cores) {
        if (!result.available() || result.firstSubmit() == null || result.lastCompletion() == null) {
            return NONE;
        }
        int completed = (int) result.jobs().stream().filter(JobRecord::completed).count();
        return of(samples, result.firstSubmit().toEpochMilli(), result.lastCompletion().toEpochMilli(), completed,
                cores);
    }

    /** Whether there is a figure. */
    public boolean measured() {
        return !Double.isNaN(platformMs);
    }

    /** CPU milliseconds per job of {@code process}; NaN when it was not read. */
    public double ms(String process) {
        return msByProcess.getOrDefault(process, Double.NaN);
    }
}
