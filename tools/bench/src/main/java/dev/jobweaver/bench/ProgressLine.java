package dev.jobweaver.bench;

import java.util.Locale;

/** Renders the one-line progress of a running workload: a bar, counts, rate and elapsed time. */
public final class ProgressLine {

    /** Characters of the bar between the brackets. */
    public static final int BAR_WIDTH = 24;

    private ProgressLine() {
    }

    /**
     * E.g. {@code burst     [##########..............]  42%  sent 9000/20000  done 8400  2100 jobs/s  4.0 s}.
     *
     * @param label the workload
     * @param total jobs the workload will submit
     * @param sent requests answered so far
     * @param done jobs in a terminal state so far
     * @param elapsedSeconds since the workload began
     */
    public static String render(String label, int total, int sent, int done, double elapsedSeconds) {
        double fraction = total <= 0 ? 0 : Math.min(1.0, done / (double) total);
        int filled = (int) Math.floor(fraction * BAR_WIDTH);
        String bar = "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled);
        double rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
        return String.format(Locale.ROOT, "%-9s [%s] %3d%%  sent %d/%d  done %d  %.0f jobs/s  %.1f s", label, bar,
                (int) Math.floor(fraction * 100), sent, total, done, rate, elapsedSeconds);
    }
}
