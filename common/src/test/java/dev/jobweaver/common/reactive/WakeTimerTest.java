package dev.jobweaver.common.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The timer stays armed for the earliest instant asked for, wakes once it is due, and nothing after a stop. */
class WakeTimerTest {

    private final Vertx vertx = Vertx.vertx();
    private final Semaphore wakes = new Semaphore(0);
    private final WakeTimer timer = new WakeTimer(vertx, wakes::release);
    private final Instant now = Instant.parse("2026-01-01T00:00:00Z");

    @AfterEach
    void close() throws Exception {
        timer.stop();
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aLaterInstantKeepsTheArmedOneAndAnEarlierOneReplacesIt() {
        timer.wakeAt(now.plusSeconds(60), now, System.nanoTime());
        timer.wakeAt(now.plusSeconds(120), now, System.nanoTime());
        assertThat(timer.due()).isEqualTo(now.plusSeconds(60));

        timer.wakeAt(now.plusSeconds(30), now, System.nanoTime());
        assertThat(timer.due()).isEqualTo(now.plusSeconds(30));
    }

    @Test
    void itWakesWhenDueAndIsDisarmedBeforeTheWake() throws Exception {
        CompletableFuture<Optional<Instant>> dueDuringWake = new CompletableFuture<>();
        AtomicReference<WakeTimer> observed = new AtomicReference<>();
        observed.set(new WakeTimer(vertx, () -> dueDuringWake.complete(Optional.ofNullable(observed.get().due()))));

        observed.get().wakeAt(now.plusMillis(50), now, System.nanoTime());

        assertThat(dueDuringWake.get(10, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void theTimeSinceTheStatementWasSentIsTakenOffTheDelay() throws Exception {
        // The database read "now" five seconds ago: a job due four seconds after it is already due.
        long sentFiveSecondsAgo = System.nanoTime() - Duration.ofSeconds(5).toNanos();
        timer.wakeAt(now.plusSeconds(4), now, sentFiveSecondsAgo);

        assertThat(wakes.tryAcquire(2, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void nothingIsArmedForAMissingInstant() {
        timer.wakeAt(null, now, System.nanoTime());
        timer.wakeAt(now.plusSeconds(1), null, System.nanoTime());

        assertThat(timer.due()).isNull();
    }

    @Test
    void afterStopNothingIsArmedAndNothingWakes() throws Exception {
        timer.wakeAt(now.plusMillis(100), now, System.nanoTime());
        timer.stop();
        timer.wakeAt(now.plusMillis(50), now, System.nanoTime());

        assertThat(timer.due()).isNull();
        assertThat(wakes.tryAcquire(500, TimeUnit.MILLISECONDS)).isFalse();
    }
}
