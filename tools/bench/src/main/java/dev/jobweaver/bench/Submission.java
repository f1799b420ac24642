package dev.jobweaver.bench;

import java.time.Instant;

/**
 * How the submission side of a workload went.
 *
 * @param offered requests sent (or attempted)
 * @param accepted answered 202
 * @param rejected answered anything else or failed to connect
 * @param firstRejection the first rejection's status and body, or null
 * @param startedAt when the first request was sent
 * @param sendSeconds from the first send to the last answer
 * @param maxSendLagMs open loop only: the largest delay of a send behind its schedule (0 otherwise)
 */
public record Submission(int offered, int accepted, int rejected, String firstRejection, Instant startedAt,
                         double sendSeconds, double maxSendLagMs) {

    /**
     * This submission followed by {@code later}, as one: counts added, the first rejection and start of the two, the
     * sending times added (the pauses between them are not sending), the larger lag.
     */
    public Submission plus(Submission later) {
        return new Submission(offered + later.offered, accepted + later.accepted, rejected + later.rejected,
                firstRejection != null ? firstRejection : later.firstRejection,
                startedAt != null ? startedAt : later.startedAt, sendSeconds + later.sendSeconds,
                Math.max(maxSendLagMs, later.maxSendLagMs));
    }
}
