package dev.jobweaver.worker.handler.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The COMPUTE bound on its own: permits, waiting within a deadline, giving back. */
class ComputePermitsTest {

    private static long in(Duration d) {
        return System.nanoTime() + d.toNanos();
    }

    @Test
    void noMoreThanThePermitsAreHeldAtOnce() throws Exception {
        ComputePermits permits = new ComputePermits(2);

        assertThat(permits.acquire(in(Duration.ofSeconds(1)))).isTrue();
        assertThat(permits.acquire(in(Duration.ofSeconds(1)))).isTrue();
        assertThat(permits.inUse()).isEqualTo(2);

        long started = System.nanoTime();
        assertThat(permits.acquire(in(Duration.ofMillis(200)))).as("a third permit, before the deadline").isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
        assertThat(permits.inUse()).isEqualTo(2);
    }

    @Test
    void aWaitingStepGetsThePermitThatIsGivenBack() throws Exception {
        ComputePermits permits = new ComputePermits(1);
        assertThat(permits.acquire(in(Duration.ofSeconds(1)))).isTrue();

        CompletableFuture<Boolean> waiter = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                waiter.complete(permits.acquire(in(Duration.ofSeconds(30))));
            } catch (InterruptedException e) {
                waiter.completeExceptionally(e);
            }
        });
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (permits.waiting() == 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(permits.waiting()).isEqualTo(1);
        assertThat(waiter).isNotDone();

        permits.release();

        assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(permits.inUse()).isEqualTo(1);
        assertThat(permits.waiting()).isZero();
    }

    @Test
    void aDeadlineAlreadyPastGetsAPermitOnlyIfOneIsFree() throws Exception {
        ComputePermits permits = new ComputePermits(1);
        assertThat(permits.acquire(System.nanoTime() - 1)).isTrue();
        assertThat(permits.acquire(System.nanoTime() - 1)).isFalse();
        permits.release();
        assertThat(permits.inUse()).isZero();
    }

    @Test
    void atLeastOnePermit() {
        assertThatThrownBy(() -> new ComputePermits(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("compute-permits");
    }
}
