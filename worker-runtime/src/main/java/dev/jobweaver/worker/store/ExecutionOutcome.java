package dev.jobweaver.worker.store;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The state of one execution attempt as the worker records it. */
@RegisterForReflection
public enum ExecutionOutcome {
    RUNNING,
    SUCCESS,
    FAILURE
}
