package dev.jobweaver.bench.chaos;

/**
 * One kill of a chaos run.
 *
 * @param target what was killed
 * @param name the process: a service instance's name, {@code kafka} or {@code postgres}
 * @param pid its process id, or -1 when it was not running (nothing was killed)
 * @param atSeconds when, in seconds since the run started
 * @param backAfterSeconds how long after the kill it was ready again; NaN when it did not come back within the run's
 *                         bound
 */
public record Kill(Target target, String name, long pid, double atSeconds, double backAfterSeconds) {

    /** Whether it was running again by the end of the run. */
    public boolean cameBack() {
        return !Double.isNaN(backAfterSeconds);
    }
}
