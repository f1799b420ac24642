package dev.jobweaver.worker.handler.simulation;

/** A step failed in an expected way (a FAIL step, a run past its time bound): the message is the attempt's error. */
final class StepFailure extends Exception {

    public StepFailure(String message) {
        super(message, null, false, false);
    }
}
