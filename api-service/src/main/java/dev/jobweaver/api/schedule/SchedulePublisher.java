package dev.jobweaver.api.schedule;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.outbox.RowOutbox;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.messaging.Channels;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

/**
 * Publishes a schedule's timing ({@link ScheduleEvent}) to {@code schedules}, keyed by its id, and a deleted
 * schedule's tombstone; once Kafka acknowledged, records it in the row, which is the outbox ({@link RowOutbox} states
 * the guarantees and threads).
 *
 * <p>An emitter on {@code schedules-out}, not a producer of its own as for {@code job-created}: nothing waits for the
 * answer (the request was answered on its commit). A record sent twice is harmless: readers keep the highest version
 * per schedule, and a tombstone repeated deletes nothing more. What is not acknowledged stays
 * {@code published_version < version} (or deleted) in the row, and {@link ScheduleRepublisher} publishes it again.
 */
@ApplicationScoped
public class SchedulePublisher {

    private static final Logger LOG = Logger.getLogger(SchedulePublisher.class);

    private final RowOutbox outbox;
    private final SchedulePublications publications;

    public SchedulePublisher(@Channel(Channels.SCHEDULES_OUT) MutinyEmitter<Record<String, byte[]>> emitter,
                             SchedulePublications publications, ObjectMapper mapper) {
        this.outbox = new RowOutbox(emitter, mapper, LOG);
        this.publications = publications;
    }

    /**
     * Publishes {@code event}; completes once Kafka acknowledged it and its version is recorded as published, or fails
     * (the row stays unpublished for the republisher).
     */
    public Uni<Void> publish(ScheduleEvent event) {
        String problem = EventRules.problem(event);
        if (problem != null) {
            // the scheduler would quarantine it: a bug here, not the client's doing
            return Uni.createFrom().failure(new IllegalStateException("the timing of schedule " + event.scheduleId()
                    + " breaks a rule: " + problem));
        }
        return outbox.send(event.scheduleId().toString(), event, null)
                .chain(() -> publications.published(event.scheduleId(), event.version()))
                .replaceWithVoid();
    }

    /**
     * Publishes the tombstone of a deleted schedule, then removes its row; completes once both are done, or fails (a
     * deleted row stays for the republisher).
     */
    public Uni<Void> tombstone(UUID scheduleId) {
        return outbox.send(scheduleId.toString(), null, null)
                .chain(() -> publications.remove(scheduleId))
                .replaceWithVoid();
    }

    /** {@link #publish}, without the caller waiting; a failure is logged and left to the republisher. */
    public void publishLater(ScheduleEvent event) {
        outbox.later(publish(event),
                () -> "the timing of schedule %s (version %d)".formatted(event.scheduleId(), event.version()));
    }

    /** {@link #tombstone}, without the caller waiting; a failure is logged and left to the republisher. */
    public void tombstoneLater(UUID scheduleId) {
        outbox.later(tombstone(scheduleId), () -> "the tombstone of schedule " + scheduleId);
    }
}
