package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The budget of request-body bytes: what it admits, what it refuses, and that it never overshoots under contention. */
class BytesInFlightTest {

    @Test
    void admitsChargesUpToTheLimitAndRefusesTheOneThatWouldCrossIt() {
        BytesInFlight budget = new BytesInFlight(100);

        assertThat(budget.tryAcquire(60)).isTrue();
        assertThat(budget.tryAcquire(40)).isTrue();
        assertThat(budget.tryAcquire(1)).isFalse();
        assertThat(budget.held()).isEqualTo(100);
    }

    @Test
    void aReleaseMakesRoomAgain() {
        BytesInFlight budget = new BytesInFlight(100);
        budget.tryAcquire(80);
        assertThat(budget.tryAcquire(30)).isFalse();

        budget.release(80);

        assertThat(budget.tryAcquire(30)).isTrue();
        assertThat(budget.held()).isEqualTo(30);
    }

    @Test
    void aChargeLargerThanTheLimitIsAdmittedWhenNothingIsHeld() {
        BytesInFlight budget = new BytesInFlight(100);

        assertThat(budget.tryAcquire(500)).isTrue();
        assertThat(budget.tryAcquire(1)).isFalse();
        budget.release(500);
        assertThat(budget.held()).isZero();
    }

    @Test
    void rejectsANegativeChargeAndANonPositiveLimit() {
        assertThatThrownBy(() -> new BytesInFlight(100).tryAcquire(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BytesInFlight(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }

    @Test
    void concurrentRequestsNeverHoldMoreThanTheLimit() throws Exception {
        BytesInFlight budget = new BytesInFlight(1_000);
        AtomicLong highest = new AtomicLong();
        AtomicLong admitted = new AtomicLong();
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 20_000; i++) {
                        if (budget.tryAcquire(300)) {
                            admitted.incrementAndGet();
                            highest.accumulateAndGet(budget.held(), Math::max);
                            budget.release(300);
                        }
                    }
                    return null;
                });
            }
            start.countDown();
        }

        assertThat(admitted.get()).isPositive();
        assertThat(highest.get()).isLessThanOrEqualTo(1_000);
        assertThat(budget.held()).isZero();
    }
}
