package dev.jobweaver.worker.handler;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.error.WorkerErrorCode;

/**
 * What running an attempt produced.
 *
 * @param success whether it succeeded
 * @param errorMessage why not, in words an operator can act on; null on success
 * @param result what the job's handler reported on success (JSON, at most 64 KiB), or null
 * @param cancel how a cancel of the job ended it, or null if none did
 */
public record RunResult(boolean success, String errorMessage, JsonNode result, Cancel cancel) {

    /** The error of an attempt ended because the worker running it stopped (shutdown, or an interrupt it obeyed). */
    public static final String WORKER_STOPPED_MESSAGE = "worker stopped during execution";

    /** How a cancel of its job ended an attempt. */
    public enum Cancel {
        /** The cancel came first: the handler was not called. */
        BEFORE_START(": the job was cancelled before the attempt started"),
        /** The attempt was interrupted. */
        WHILE_RUNNING(": the job was cancelled while the attempt ran");

        private final String detail;

        Cancel(String detail) {
            this.detail = detail;
        }

        /** The error of an attempt this cancel ended ({@code WORKER.CANCELLED}). */
        public String message() {
            return WorkerErrorCode.CANCELLED.code() + detail;
        }
    }

    /** An outcome no cancel made. */
    public RunResult(boolean success, String errorMessage, JsonNode result) {
        this(success, errorMessage, result, null);
    }

    /** A success without a result, and a failure. */
    public RunResult(boolean success, String errorMessage) {
        this(success, errorMessage, null);
    }

    /** Every step ran. */
    public static RunResult succeeded() {
        return new RunResult(true, null, null);
    }

    /** The attempt succeeded and reported {@code result} (null for none). */
    public static RunResult succeeded(JsonNode result) {
        return new RunResult(true, null, result);
    }

    /** The worker stopped while the attempt ran: {@link #WORKER_STOPPED_MESSAGE}. */
    public static RunResult workerStopped() {
        return failed(WORKER_STOPPED_MESSAGE);
    }

    /** The run failed for {@code reason}. */
    public static RunResult failed(String reason) {
        return new RunResult(false, reason, null);
    }

    /** The attempt was ended by a cancel of its job ({@code WORKER.CANCELLED}). */
    public static RunResult cancelled(Cancel how) {
        return new RunResult(false, how.message(), null, how);
    }
}
