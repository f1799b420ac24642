package dev.jobweaver.worker.offsets;

/**
 * Notices a partition whose records stopped reaching the worker although it could run them: the connector paused it
 * (its queue is full), the worker has free run slots, and nothing new was received from it for a while.
 *
 * <p>In normal operation a paused partition with free slots lasts a moment (the queue drains, the connector resumes
 * it); paused with every slot taken is ordinary back-pressure. Records held this way never reach the commit strategy,
 * so the stuck-offset check cannot see them. Pure and not thread-safe: one per partition, used under the handler's
 * lock.
 */
final class DeliveryWatch {

    private long lastReceived = Long.MIN_VALUE;
    private long since = -1;
    private boolean reported;

    /**
     * Records one observation.
     *
     * @param paused whether the consumer has the partition paused now
     * @param highestReceived the highest offset received from it so far ({@link PartitionOffsets#NONE} if none)
     * @param slotsFree whether the worker could start a run now
     * @return for how long (nanoseconds) delivery has been stalled so far; 0 if it is not
     */
    public long observe(boolean paused, long highestReceived, boolean slotsFree, long nowNanos) {
        boolean waiting = paused && slotsFree;
        if (!waiting || highestReceived != lastReceived) {
            lastReceived = highestReceived;
            since = waiting ? nowNanos : -1;
            reported = false;
            return 0;
        }
        if (since == -1) {
            since = nowNanos;
        }
        return nowNanos - since;
    }

    /** True the first time it is called in a stall (so that a stall is logged once). */
    public boolean firstReport() {
        if (reported) {
            return false;
        }
        reported = true;
        return true;
    }
}
