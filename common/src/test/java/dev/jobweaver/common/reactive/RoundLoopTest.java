package dev.jobweaver.common.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rounds run one at a time; a wake during a round, a full batch or a due timer each bring another; a stop ends it. */
class RoundLoopTest {

    private final Vertx vertx = Vertx.vertx();
    /** Each round takes the next of these as its outcome, so the test decides when and how a round ends. */
    private final LinkedBlockingQueue<CompletableFuture<Boolean>> ends = new LinkedBlockingQueue<>();
    private final Semaphore started = new Semaphore(0);
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final RoundLoop loop = new RoundLoop(vertx, this::round, failures::add);

    private Uni<Boolean> round() {
        if (running.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        CompletableFuture<Boolean> end = new CompletableFuture<>();
        ends.add(end);
        started.release();
        return Uni.createFrom().completionStage(end).eventually(running::decrementAndGet);
    }

    private CompletableFuture<Boolean> nextRound() throws InterruptedException {
        assertThat(started.tryAcquire(10, TimeUnit.SECONDS)).as("a round started").isTrue();
        return ends.take();
    }

    @AfterEach
    void close() throws Exception {
        loop.stop();
        ends.forEach(end -> end.complete(false));
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aWakeDuringARoundIsFollowedByOneMoreRoundNotASecondAtOnce() throws Exception {
        loop.wake();
        CompletableFuture<Boolean> first = nextRound();
        loop.wake();
        loop.wake();
        assertThat(started.tryAcquire(200, TimeUnit.MILLISECONDS)).as("no round beside the first").isFalse();

        first.complete(false);
        nextRound().complete(false);

        assertThat(started.tryAcquire(200, TimeUnit.MILLISECONDS)).as("one round for both wakes").isFalse();
        assertThat(overlaps).hasValue(0);
    }

    @Test
    void aFullRoundIsFollowedByAnotherAtOnce() throws Exception {
        loop.wake();
        nextRound().complete(true);
        nextRound().complete(false);

        assertThat(started.tryAcquire(200, TimeUnit.MILLISECONDS)).isFalse();
    }

    @Test
    void aFailedRoundIsReportedAndTheNextWakeRunsAnother() throws Exception {
        loop.wake();
        IllegalStateException failure = new IllegalStateException("database down");
        nextRound().completeExceptionally(failure);

        loop.wake();
        nextRound().complete(false);

        assertThat(failures).containsExactly(failure);
    }

    @Test
    void theTimerRunsARoundWhenDue() throws Exception {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        loop.wakeAt(now.plusMillis(50), now, System.nanoTime());
        assertThat(loop.timerDue()).isEqualTo(now.plusMillis(50));

        nextRound().complete(false);

        assertThat(loop.timerDue()).isNull();
    }

    @Test
    void afterAStopNoRoundStartsNorIsATimerArmed() throws Exception {
        loop.stop();
        loop.wake();
        Instant now = Instant.now();
        loop.wakeAt(now.plusMillis(10), now, System.nanoTime());

        assertThat(started.tryAcquire(300, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(loop.timerDue()).isNull();
    }
}
