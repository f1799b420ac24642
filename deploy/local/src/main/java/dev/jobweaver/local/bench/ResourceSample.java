package dev.jobweaver.local.bench;

/**
 * One reading of one process.
 *
 * @param epochMs when (milliseconds since the epoch)
 * @param process the instance name ({@code api-service}, {@code kafka}, ...)
 * @param rssKb resident set size ({@code VmRSS}) in kB
 * @param cpuPercent percent of one core since the previous reading; NaN for the first
 */
public record ResourceSample(long epochMs, String process, long rssKb, double cpuPercent) {
}
