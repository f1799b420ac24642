package dev.jobweaver.api.platform.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A budget of request-body bytes being handled at once, so that concurrent large submissions cannot fill the heap.
 *
 * <h2>Guarantee</h2>
 * The sum of the charges held never exceeds {@link #limit()}, with one exception: when nothing is held, one charge
 * is always admitted whatever its size, so that a single request the body limit allows can never be refused for
 * being too large for the budget.
 *
 * <h2>Threads</h2>
 * {@link #tryAcquire} runs on an event loop as a request arrives and {@link #release} on whichever thread ends the
 * response; both are lock-free and never block.
 *
 * <h2>Invariant</h2>
 * Every successful {@link #tryAcquire} is followed by exactly one {@link #release} of the same charge (the caller ties
 * it to the end of the request), so {@link #held()} returns to 0 once no request is in flight.
 */
final class BytesInFlight {

    private final long limit;
    private final AtomicLong held = new AtomicLong();

    /** @param limit most bytes held at once; at least 1 */
    public BytesInFlight(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the budget of bytes in flight must be at least 1, got " + limit);
        }
        this.limit = limit;
    }

    /** Takes {@code charge} bytes from the budget if they fit (or if nothing is held); false leaves it unchanged. */
    public boolean tryAcquire(long charge) {
        if (charge < 0) {
            throw new IllegalArgumentException("a charge cannot be negative, got " + charge);
        }
        while (true) {
            long current = held.get();
            if (current > 0 && current + charge > limit) {
                return false;
            }
            if (held.compareAndSet(current, current + charge)) {
                return true;
            }
        }
    }

    /** Gives back a charge an earlier {@link #tryAcquire} took. */
    public void release(long charge) {
        held.addAndGet(-charge);
    }

    /** Bytes held now. */
    public long held() {
        return held.get();
    }

    /** The budget. */
    public long limit() {
        return limit;
    }
}
