package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RSS and CPU of one process over a window.
 *
 * @param process the instance name
 * @param samples readings in the window
 * @param maxRssMb largest RSS in MiB
 * @param meanRssMb mean RSS in MiB
 * @param meanCpuPercent mean percent of one core (NaN without two readings)
 * @param maxCpuPercent largest one-second percent of one core
 * @param jitCpuSeconds CPU seconds of the JVM's JIT compiler threads in the window (NaN: not a JVM); high while a
 *                      service still compiles its hot code, near zero once it is warm
 * @param gcCpuSeconds CPU seconds of its garbage collector threads in the window (NaN: not a JVM)
 */
public record ResourceSummary(String process, int samples, double maxRssMb, double meanRssMb, double meanCpuPercent,
                              double maxCpuPercent, double jitCpuSeconds, double gcCpuSeconds) {

    /** A summary without JVM thread figures. */
    public ResourceSummary(String process, int samples, double maxRssMb, double meanRssMb, double meanCpuPercent,
                           double maxCpuPercent) {
        this(process, samples, maxRssMb, meanRssMb, meanCpuPercent, maxCpuPercent, Double.NaN, Double.NaN);
    }

    /** One summary per process, in first-seen order, of the samples with {@code fromMs <= epochMs <= toMs}. */
    public static List<ResourceSummary> of(List<ResourceSample> samples, long fromMs, long toMs) {
        Map<String, List<ResourceSample>> byProcess = new LinkedHashMap<>();
        for (ResourceSample s : samples) {
            if (s.epochMs() >= fromMs && s.epochMs() <= toMs) {
                byProcess.computeIfAbsent(s.process(), p -> new ArrayList<>()).add(s);
            }
        }
        List<ResourceSummary> result = new ArrayList<>();
        byProcess.forEach((process, list) -> {
            double maxRss = 0;
            double sumRss = 0;
            double sumCpu = 0;
            double maxCpu = Double.NaN;
            int cpuCount = 0;
            double jit = Double.NaN;
            double gc = Double.NaN;
            for (ResourceSample s : list) {
                jit = sumOrNaN(jit, s.jitCpuSeconds());
                gc = sumOrNaN(gc, s.gcCpuSeconds());
                double mb = s.rssKb() / 1024.0;
                maxRss = Math.max(maxRss, mb);
                sumRss += mb;
                if (!Double.isNaN(s.cpuPercent())) {
                    sumCpu += s.cpuPercent();
                    maxCpu = cpuCount == 0 ? s.cpuPercent() : Math.max(maxCpu, s.cpuPercent());
                    cpuCount++;
                }
            }
            result.add(new ResourceSummary(process, list.size(), maxRss, sumRss / list.size(),
                    cpuCount == 0 ? Double.NaN : sumCpu / cpuCount, maxCpu, jit, gc));
        });
        return result;
    }

    /** {@code sum + value}, where NaN means "no figure yet" for the sum and "no figure" for the value. */
    private static double sumOrNaN(double sum, double value) {
        if (Double.isNaN(value)) {
            return sum;
        }
        return Double.isNaN(sum) ? value : sum + value;
    }
}
