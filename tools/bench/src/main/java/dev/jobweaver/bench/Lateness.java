package dev.jobweaver.bench;

import java.util.List;

/**
 * How late delayed jobs started against their due time (the delayed workload): the worker's {@code started_at} minus
 * {@link JobRecord#dueAt}, the platform's recorded {@code runAt} when it has one, else the bench's send time plus the
 * delay.
 *
 * @param delayed jobs sent with a delay
 * @param started of them, jobs that started (and so have a lateness)
 * @param millis lateness in milliseconds over the started jobs (percentiles; a negative value is an early start)
 * @param earliestMs the smallest lateness, negative when a job started before its time; NaN without a start
 * @param early jobs that started more than {@link #EARLY_TOLERANCE_MS} before their time
 * @param dueFromPlatform jobs whose due time is the platform's {@code run_at}
 * @param dueFromClient jobs whose due time is the bench's send time plus the delay (no {@code run_at} recorded)
 */
public record Lateness(int delayed, int started, Percentiles millis, double earliestMs, int early,
                       int dueFromPlatform, int dueFromClient) {

    /**
     * How far before its time a start may be recorded without counting as early, in milliseconds: the due time and the
     * start are taken by two processes, each to the microsecond at best, and a clock read truncated to the millisecond
     * on either side can move the start up to a millisecond ahead of its time.
     */
    public static final double EARLY_TOLERANCE_MS = 2;

    /** No delayed job. */
    public static final Lateness NONE = new Lateness(0, 0, Percentiles.EMPTY, Double.NaN, 0, 0, 0);

    /** The lateness of the jobs of {@code jobs} that were sent with a delay; {@link #NONE} when none was. */
    public static Lateness of(List<JobRecord> jobs) {
        List<JobRecord> delayed = jobs.stream().filter(j -> j.control().hasDelay()).toList();
        if (delayed.isEmpty()) {
            return NONE;
        }
        double[] late = delayed.stream().mapToDouble(JobRecord::latenessMs).filter(v -> !Double.isNaN(v)).toArray();
        double earliest = Double.NaN;
        int early = 0;
        for (double v : late) {
            earliest = Double.isNaN(earliest) ? v : Math.min(earliest, v);
            if (v < -EARLY_TOLERANCE_MS) {
                early++;
            }
        }
        int fromPlatform = (int) delayed.stream().filter(j -> j.runAt() != null).count();
        return new Lateness(delayed.size(), late.length, Percentiles.of(late), earliest, early, fromPlatform,
                delayed.size() - fromPlatform);
    }

    /** Whether any job was sent with a delay. */
    public boolean measured() {
        return delayed > 0;
    }

    /** Where the due times came from, for the reports: the platform's runAt, the bench's clock, or how many each. */
    public String dueSource() {
        if (dueFromClient == 0) {
            return "due time: the platform's runAt (jobweaver_api.jobs.run_at)";
        }
        if (dueFromPlatform == 0) {
            return "due time: the bench's send time + delayMs (no runAt recorded; the API accepts after the send, so"
                    + " lateness is overstated by up to the 202's time and an early start is early for certain)";
        }
        return "due time: the platform's runAt for " + dueFromPlatform + " jobs, the bench's send time + delayMs for "
                + dueFromClient + " without one";
    }
}
