package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;

/** The kinds of job the platform runs. */
@RegisterForReflection
public enum JobType {
    /** A job whose payload is a list of simulated {@link Step}s. */
    SIMULATION
}
