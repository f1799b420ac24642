package dev.jobweaver.scheduler.dispatch;

import dev.jobweaver.common.job.Priority;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;

/**
 * The order in which a dispatch claim visits the priority levels: the first drawn by weight
 * ({@code jobweaver.scheduler.dispatch.priority-weights}, 70/20/10 unless set), then the others in declaration order, so
 * that no level starves under a flood of another. A level of weight 0 is never drawn first but is still visited.
 * Immutable; any thread.
 */
public final class ClaimOrder {

    /** The platform's weights: HIGH first in 70% of claims, NORMAL in 20%, LOW in 10%. */
    public static final ClaimOrder DEFAULT = new ClaimOrder(70, 20, 10);

    private final int high;
    private final int normal;
    private final int total;

    /** Weights of HIGH, NORMAL and LOW: each 0 or more, at least one above 0; IllegalArgumentException naming why not. */
    public ClaimOrder(int high, int normal, int low) {
        long sum = (long) high + normal + low;
        if (high < 0 || normal < 0 || low < 0 || sum == 0 || sum > 1_000_000) {
            throw new IllegalArgumentException("jobweaver.scheduler.dispatch.priority-weights must be 0 or more each, "
                    + "at least one above 0 and 1,000,000 at most together, got high=" + high + ", normal=" + normal
                    + ", low=" + low);
        }
        this.high = high;
        this.normal = normal;
        this.total = high + normal + low;
    }

    /** A fresh draw. */
    public List<Priority> draw() {
        return draw(ThreadLocalRandom.current()::nextInt);
    }

    /**
     * The order for a draw of {@code roll}.
     *
     * @param roll given a bound, a uniform value in [0, bound)
     */
    public List<Priority> draw(IntUnaryOperator roll) {
        int value = roll.applyAsInt(total);
        Priority first = value < high ? Priority.HIGH : value < high + normal ? Priority.NORMAL : Priority.LOW;
        List<Priority> order = new ArrayList<>(3);
        order.add(first);
        for (Priority level : Priority.values()) {
            if (level != first) {
                order.add(level);
            }
        }
        return order;
    }
}
