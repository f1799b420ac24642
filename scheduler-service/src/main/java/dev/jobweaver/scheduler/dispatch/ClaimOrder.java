package dev.jobweaver.scheduler.dispatch;

import dev.jobweaver.common.job.Priority;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;

/** The order in which a dispatch claim visits the priority levels: the first drawn by weight, then the others. */
public final class ClaimOrder {

    private ClaimOrder() {
    }

    /** A fresh draw: HIGH first in 70% of claims, NORMAL in 20%, LOW in 10%. */
    public static List<Priority> draw() {
        return draw(() -> ThreadLocalRandom.current().nextInt(100));
    }

    /**
     * The order for a draw of {@code roll}.
     *
     * @param roll gives a uniform value in [0, 100)
     */
    public static List<Priority> draw(IntSupplier roll) {
        return Priority.firstFor(roll.getAsInt()).claimOrder();
    }
}
