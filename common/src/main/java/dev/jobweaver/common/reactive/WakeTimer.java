package dev.jobweaver.common.reactive;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One one-shot Vert.x timer that wakes a round loop when the earliest piece of work not due yet becomes due, so that
 * waiting work costs nothing until then.
 *
 * <p><b>Guarantee.</b>
 * <ul>
 *   <li>At most one timer is armed, always for the earliest instant asked for since it last fired: {@link #wakeAt}
 *       with an instant at or after the armed one changes nothing; an earlier one replaces it.</li>
 *   <li>When the timer fires, it is disarmed first and {@code wake} is called, so a {@code wakeAt} made by the
 *       round it starts arms a new timer.</li>
 *   <li>Instants are read on the database's clock. A transaction's {@code now()} is when it began, and by the time the
 *       caller has committed tens of milliseconds may have passed; the time elapsed since the statement was sent
 *       ({@code sentAtNanos}) is taken off the delay, so the timer errs early by at most the way to the database. The
 *       delay is rounded up to the next millisecond (stored instants have microseconds), and is at least one: a
 *       round that finds its work not yet due arms the timer again.</li>
 *   <li>After {@link #stop} nothing is armed and {@code wake} is never called again.</li>
 * </ul>
 *
 * <p><b>Threads.</b> Every method is safe from any thread and never blocks beyond a short lock. {@code wake} runs on a
 * Vert.x event loop (the timer's) and must not block: it should only start a round or ask for one.
 */
public final class WakeTimer {

    private final Vertx vertx;
    private final Runnable wake;
    /** Guards the fields below. Never held while calling {@code wake}. */
    private final Object lock = new Object();
    /** The Vert.x id of the armed timer, -1 when none is. */
    private long timerId = -1;
    private Instant due;
    private boolean stopped;

    /**
     * @param vertx the Vert.x instance whose timer is armed
     * @param wake  what the timer does when it fires: start (or ask for) a round
     */
    public WakeTimer(Vertx vertx, Runnable wake) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.wake = Objects.requireNonNull(wake, "wake");
    }

    /**
     * Arms the timer for {@code dueAt}, as measured from {@code now} on the database's clock read no earlier than
     * {@code sentAtNanos} ({@link System#nanoTime()} as the statement was sent); nothing changes if the timer is
     * already armed for that instant or earlier, if either instant is null, or after {@link #stop}.
     */
    public void wakeAt(Instant dueAt, Instant now, long sentAtNanos) {
        if (dueAt == null || now == null) {
            return;
        }
        Duration ahead = Duration.between(now, dueAt).minusNanos(System.nanoTime() - sentAtNanos);
        long delay = Math.max(1, ahead.plusNanos(999_999).toMillis());
        synchronized (lock) {
            if (stopped || timerId >= 0 && !due.isAfter(dueAt)) {
                return;
            }
            if (timerId >= 0) {
                vertx.cancelTimer(timerId);
            }
            due = dueAt;
            timerId = vertx.setTimer(delay, this::fired);
        }
    }

    /** When the timer is armed for, or null if it is not. */
    public Instant due() {
        synchronized (lock) {
            return timerId >= 0 ? due : null;
        }
    }

    /** Cancels the armed timer and ignores every later {@link #wakeAt}. */
    public void stop() {
        synchronized (lock) {
            stopped = true;
            if (timerId >= 0) {
                vertx.cancelTimer(timerId);
                timerId = -1;
                due = null;
            }
        }
    }

    private void fired(long id) {
        synchronized (lock) {
            if (stopped) {
                return;
            }
            // A timer cancelled after it had fired still wakes: a spare round finds nothing due, a missed one would
            // leave work waiting.
            if (timerId == id) {
                timerId = -1;
                due = null;
            }
        }
        wake.run();
    }
}
