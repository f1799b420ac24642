package dev.jobweaver.bench;

/**
 * One line of the targets table.
 *
 * @param target what is measured, e.g. {@code burst throughput}
 * @param goal the target, e.g. {@code >= 2000 jobs/s, exactly once}
 * @param measured what this run measured
 * @param verdict {@code pass}, {@code miss} or {@code n/a} (not measured in this run)
 */
public record TargetRow(String target, String goal, String measured, String verdict) {

    /** A row whose verdict follows {@code pass}. */
    static TargetRow of(String target, String goal, String measured, boolean pass) {
        return new TargetRow(target, goal, measured, pass ? "pass" : "miss");
    }

    /** A row that this run could not judge. */
    static TargetRow notMeasured(String target, String goal, String why) {
        return new TargetRow(target, goal, why, "n/a");
    }
}
