package dev.jobweaver.api.platform.background;

import io.smallrye.mutiny.Uni;
import org.jboss.logging.Logger;

/** What the API's scheduled rounds (cleanups, gauges refreshed from the database) share. */
public final class RoundFailures {

    private RoundFailures() {
    }

    /**
     * {@code round}, its failure logged at {@code level} as "{@code failed}: message" and swallowed: a round that fails
     * is left to the next one, and the scheduler never sees a failure. Runs where {@code round} runs.
     */
    public static Uni<Void> logged(Uni<?> round, Logger log, Logger.Level level, String failed) {
        return round.onFailure().invoke(e -> log.logf(level, "%s: %s", failed, e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
