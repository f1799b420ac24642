package dev.jobweaver.scheduler.job;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records the {@link JobsCommitted} events that ask for a wake-up at or after {@link #MARKED}, so that a test can find
 * the event of its own transition among those of the running service, which never asks for such an instant.
 */
@ApplicationScoped
public class CommittedEvents {

    /** The first instant a test's transition marks its event with. */
    static final Instant MARKED = Instant.parse("2100-01-01T00:00:00Z");

    private final List<String> seen = new CopyOnWriteArrayList<>();

    void committed(@Observes JobsCommitted event) {
        if (event.dueAt() != null && !event.dueAt().isBefore(MARKED)) {
            seen.add("event " + event.dueAt());
        }
    }

    /** Each marked event, in the order fired; a method, since a field read through the client proxy is not the bean's. */
    List<String> seen() {
        return List.copyOf(seen);
    }
}
