package dev.jobweaver.scheduler.dispatch;

import static dev.jobweaver.scheduler.testing.Waits.TIMEOUT;

import dev.jobweaver.common.job.Priority;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Dispatch rounds raced against each other, for the tests of the limits' claim lock. */
final class ClaimRace {

    private static final List<List<Priority>> ORDERS = List.of(
            List.of(Priority.HIGH, Priority.NORMAL, Priority.LOW),
            List.of(Priority.LOW, Priority.NORMAL, Priority.HIGH),
            List.of(Priority.NORMAL, Priority.LOW, Priority.HIGH));

    private ClaimRace() {
    }

    /**
     * {@code rounds} times, {@code concurrent} rounds of {@code dispatcher} at once, each in its own transaction on its
     * own connection, each starting from another priority level: without the claim lock they would count the same
     * free room and take different jobs with it.
     */
    static void race(Dispatcher dispatcher, int concurrent, int rounds) {
        for (int r = 0; r < rounds; r++) {
            List<Uni<List<UUID>>> together = new ArrayList<>();
            for (int c = 0; c < concurrent; c++) {
                together.add(dispatcher.dispatchRoundInOrder(ORDERS.get(c % ORDERS.size())));
            }
            Uni.join().all(together).andFailFast().await().atMost(TIMEOUT);
        }
    }
}
