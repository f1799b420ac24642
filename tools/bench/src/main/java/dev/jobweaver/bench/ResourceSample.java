package dev.jobweaver.bench;

/**
 * One reading of one process.
 *
 * @param epochMs when (milliseconds since the epoch)
 * @param process the instance name ({@code api-service}, {@code kafka}, ...)
 * @param rssKb resident set size ({@code VmRSS}) in kB
 * @param cpuPercent percent of one core since the previous reading; NaN for the first
 * @param jitCpuSeconds CPU seconds of the JVM's JIT compiler threads since the previous reading; NaN for the first
 *                      reading and for a process that is not a JVM
 * @param gcCpuSeconds the same for its garbage collector threads ({@link ProcStats.RuntimeThread#GC})
 */
public record ResourceSample(long epochMs, String process, long rssKb, double cpuPercent, double jitCpuSeconds,
                             double gcCpuSeconds) {

    /** A reading without JVM thread figures (a process that is not a JVM, or the first reading). */
    public ResourceSample(long epochMs, String process, long rssKb, double cpuPercent) {
        this(epochMs, process, rssKb, cpuPercent, Double.NaN, Double.NaN);
    }
}
