package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * How urgently a job should start. A dispatch claim picks the level it looks at first at random, by weights the
 * scheduler is configured with (70/20/10 unless set), then falls through to the other levels in declaration order, so
 * no level starves under a flood of another.
 */
@RegisterForReflection
public enum Priority {
    HIGH,
    NORMAL,
    LOW
}
