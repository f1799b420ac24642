package dev.jobweaver.common.job;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * How urgently a job should start. A dispatch claim picks its first level at random with these weights (70/20/10),
 * then falls through to the other levels in declaration order, so no level starves under a flood of another.
 */
@RegisterForReflection
public enum Priority {
    HIGH(70),
    NORMAL(20),
    LOW(10);

    private final int weight;

    Priority(int weight) {
        this.weight = weight;
    }

    /** The percentage of claims that look at this level first. */
    public int weight() {
        return weight;
    }

    /** The level a claim looks at first, for a uniform draw {@code roll} in [0, 100). */
    public static Priority firstFor(int roll) {
        int bound = 0;
        for (Priority level : values()) {
            bound += level.weight;
            if (roll < bound) {
                return level;
            }
        }
        return LOW;
    }

    /** The levels in the order a claim that starts at {@code first} visits them: {@code first}, then the others in order. */
    public java.util.List<Priority> claimOrder() {
        java.util.List<Priority> order = new java.util.ArrayList<>(3);
        order.add(this);
        for (Priority level : values()) {
            if (level != this) {
                order.add(level);
            }
        }
        return order;
    }
}
