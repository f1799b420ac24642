package dev.jobweaver.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * What waiting costs (the delayed-idle workload): the CPU of each platform process while no job is submitted, first
 * as the platform is, then with many PENDING jobs due far ahead in the scheduler's table. A scheduler whose timer
 * sleeps until the next due job spends the same in both; one that scans what waits spends more with the rows.
 *
 * @param rows future rows inserted into {@code jobweaver_scheduler.job_executions}
 * @param dueIn how far ahead of the insert they were due
 * @param insertSeconds how long inserting them took (and vacuuming the table after)
 * @param window how long each of the two measurements lasted
 * @param processes one row per process, in the order the platform lists them
 * @param deleted rows deleted by their marker after the measurement (the inserted ones, and any left by a bench
 *                stopped before it could delete them); -1 when the delete failed
 */
public record IdleCpu(int rows, Duration dueIn, double insertSeconds, Duration window, List<ProcessCpu> processes,
                      int deleted) {

    /**
     * One process's CPU in each window.
     *
     * @param process the instance name ({@code scheduler-service}, {@code postgres}, ...)
     * @param emptyMsPerSecond CPU milliseconds per second of wall time without the rows; NaN when not readable
     * @param loadedMsPerSecond the same with the rows in the table
     */
    public record ProcessCpu(String process, double emptyMsPerSecond, double loadedMsPerSecond) {
    }

    public IdleCpu {
        processes = List.copyOf(processes);
    }

    /** The row of {@code process}, or null. */
    public ProcessCpu of(String process) {
        return processes.stream().filter(p -> p.process().equals(process)).findFirst().orElse(null);
    }

    /** The rows of every scheduler instance ({@code scheduler-service}, {@code scheduler-service-2}, ...). */
    public List<ProcessCpu> schedulers() {
        return processes.stream().filter(p -> p.process().startsWith("scheduler-service")).toList();
    }

    /** CPU milliseconds per second of wall time between two readings of {@code utime + stime}. */
    static double msPerSecond(long ticksBefore, long ticksAfter, long wallNanos) {
        if (wallNanos <= 0 || ticksAfter < ticksBefore) {
            return Double.NaN;
        }
        double cpuMs = (ticksAfter - ticksBefore) * 1000.0 / ProcStats.CLOCK_TICKS_PER_SECOND;
        return cpuMs / (wallNanos / 1e9);
    }

    /**
     * Each process's CPU in milliseconds per second between {@code before} and {@code after} (readings of
     * {@link #ticks}, {@code wallNanos} apart): the growth of every process id in both, plus all of one that appeared
     * in between (a backend PostgreSQL started); one that ended in between is left out. A process missing from either
     * reading is NaN.
     */
    static Map<String, Double> rates(Map<String, Map<Long, Long>> before, Map<String, Map<Long, Long>> after,
                                     long wallNanos) {
        Map<String, Double> rates = new LinkedHashMap<>();
        before.forEach((process, first) -> {
            Map<Long, Long> last = after.get(process);
            if (last == null) {
                rates.put(process, Double.NaN);
                return;
            }
            long grown = 0;
            for (Map.Entry<Long, Long> e : last.entrySet()) {
                Long earlier = first.get(e.getKey());
                grown += earlier == null ? e.getValue() : Math.max(0, e.getValue() - earlier);
            }
            rates.put(process, msPerSecond(0, grown, wallNanos));
        });
        return rates;
    }

    /** The rows of both windows side by side, in the order of {@code empty}, then anything only in {@code loaded}. */
    static List<ProcessCpu> combine(Map<String, Double> empty, Map<String, Double> loaded) {
        List<ProcessCpu> rows = new ArrayList<>();
        empty.forEach((process, ms) -> rows.add(new ProcessCpu(process, ms, loaded.getOrDefault(process, Double.NaN))));
        loaded.forEach((process, ms) -> {
            if (!empty.containsKey(process)) {
                rows.add(new ProcessCpu(process, Double.NaN, ms));
            }
        });
        return rows;
    }

    /**
     * Cumulative {@code utime + stime} ticks now, by process and process id: the process itself and, when it says so,
     * its descendants (PostgreSQL's backends); a process whose own line cannot be read is missing.
     */
    static Map<String, Map<Long, Long>> ticks(List<SampledProcess> processes, Path proc,
                                             LongFunction<List<Long>> descendants) {
        Map<String, Map<Long, Long>> ticks = new LinkedHashMap<>();
        for (SampledProcess p : processes) {
            if (p.pid() <= 0) {
                continue;
            }
            List<Long> pids = p.pids(descendants);
            Map<Long, Long> byPid = new LinkedHashMap<>();
            for (long pid : pids) {
                try {
                    byPid.put(pid, ProcStats.cpuTicks(Files.readString(proc.resolve(Long.toString(pid))
                            .resolve("stat"))));
                } catch (IOException | RuntimeException e) {
                    // gone between listing and reading
                }
            }
            if (byPid.containsKey(p.pid())) {
                ticks.put(p.name(), byPid);
            }
        }
        return ticks;
    }

    /** {@link #ticks} of {@code processes} from {@code /proc}, children found with {@link ProcessHandle}. */
    static Map<String, Map<Long, Long>> ticks(List<SampledProcess> processes) {
        return ticks(processes, Path.of("/proc"), pid -> ProcessHandle.of(pid).stream()
                .flatMap(ProcessHandle::descendants).map(ProcessHandle::pid).toList());
    }
}
