package dev.jobweaver.common.reactive;

import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs the rounds of a claim-publish-commit loop one at a time, each when asked ({@link #wake}), when its
 * {@link WakeTimer} fires, or right after a round that found more work than it took.
 *
 * <p><b>Guarantee.</b>
 * <ul>
 *   <li>At most one round runs at a time. A {@link #wake} while one runs is not lost: another round follows it.</li>
 *   <li>A round whose {@code Uni} emits {@code true} (its batch was full: work may remain) is followed by another at
 *       once; one that fails is reported to {@code failed} (unless the loop is stopped) and ends like an empty one, so
 *       a failure never stops the loop.</li>
 *   <li>After {@link #stop} no round starts, no timer is armed and {@code failed} is not called.</li>
 * </ul>
 *
 * <p><b>Threads.</b> Every method is safe from any thread and never blocks. Each round runs on a fresh duplicated
 * Vert.x context, as Quarkus gives each request: it carries the round's OpenTelemetry context and MDC, whichever
 * thread woke the loop.
 */
public final class RoundLoop {

    private final Vertx vertx;
    private final Supplier<Uni<Boolean>> round;
    private final Consumer<Throwable> failed;
    private final WakeTimer timer;
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private volatile boolean stopped;

    /**
     * @param vertx  the Vert.x instance the rounds and the timer run on
     * @param round  one round; its item says whether the batch was full, so another round should follow at once
     * @param failed what to do with the failure of a round, such as logging it
     */
    public RoundLoop(Vertx vertx, Supplier<Uni<Boolean>> round, Consumer<Throwable> failed) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.round = Objects.requireNonNull(round, "round");
        this.failed = Objects.requireNonNull(failed, "failed");
        this.timer = new WakeTimer(vertx, this::wake);
    }

    /** Runs a round now, or right after the one in progress. Never blocks. */
    public void wake() {
        if (stopped) {
            return;
        }
        again.set(true);
        if (running.compareAndSet(false, true)) {
            again.set(false);
            VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext()).runOnContext(v -> run());
        }
    }

    /**
     * Wakes the loop at {@code dueAt}, as measured from {@code now} on the database's clock read no earlier than
     * {@code sentAtNanos} ({@link WakeTimer#wakeAt}); nothing changes if the timer is armed for that instant or
     * earlier, or once the loop is stopped.
     */
    public void wakeAt(Instant dueAt, Instant now, long sentAtNanos) {
        if (!stopped) {
            timer.wakeAt(dueAt, now, sentAtNanos);
        }
    }

    /** When the one-shot timer is armed for, or null if it is not. */
    public Instant timerDue() {
        return timer.due();
    }

    /** Starts no round from now on and cancels the timer; a round in progress runs to its end. */
    public void stop() {
        stopped = true;
        timer.stop();
    }

    private void run() {
        Uni.createFrom().<Boolean>deferred(round::get).subscribe().with(
                full -> finish(Boolean.TRUE.equals(full)),
                failure -> {
                    if (!stopped) {
                        failed.accept(failure);
                    }
                    finish(false);
                });
    }

    private void finish(boolean full) {
        running.set(false);
        if (full || again.get()) {
            wake();
        }
    }
}
