package dev.jobweaver.local.bench;

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
 */
public record ResourceSummary(String process, int samples, double maxRssMb, double meanRssMb, double meanCpuPercent,
                              double maxCpuPercent) {

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
            for (ResourceSample s : list) {
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
                    cpuCount == 0 ? Double.NaN : sumCpu / cpuCount, maxCpu));
        });
        return result;
    }
}
