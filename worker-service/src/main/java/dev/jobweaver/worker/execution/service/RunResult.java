package dev.jobweaver.worker.execution.service;

/**
 * What running a job's steps produced.
 *
 * @param success whether every step ran
 * @param errorMessage why not, in words an operator can act on; null on success
 */
public record RunResult(boolean success, String errorMessage) {

    /** Every step ran. */
    public static RunResult succeeded() {
        return new RunResult(true, null);
    }

    /** The run failed for {@code reason}. */
    public static RunResult failed(String reason) {
        return new RunResult(false, reason);
    }
}
