package dev.jobweaver.api.schedule;

import dev.jobweaver.api.outbox.RowOutbox;
import dev.jobweaver.api.outbox.RowPublisher;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.messaging.Channels;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.Record;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;

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
public class SchedulePublisher extends RowPublisher<ScheduleEvent> {

    @Inject SchedulePublications publications;

    @Inject
    SchedulePublisher(RowOutbox outbox,
                      @Channel(Channels.SCHEDULES_OUT) MutinyEmitter<Record<String, byte[]>> emitter) {
        super(outbox, emitter, SchedulePublisher.class);
    }

    @Override
    protected Change change(ScheduleEvent event) {
        return new Change("the timing of schedule " + event.scheduleId(), "version " + event.version(),
                EventRules.problem(event), List.of(new RowOutbox.Outgoing(event.scheduleId().toString(), event, null)),
                () -> publications.published(event.scheduleId(), event.version()));
    }

    /**
     * Publishes the tombstone of a deleted schedule, then removes its row; completes once both are done, or fails (a
     * deleted row stays for the republisher).
     */
    public Uni<Void> tombstone(UUID scheduleId) {
        return send(tombstoneOf(scheduleId));
    }

    /** {@link #tombstone}, without the caller waiting; a failure is logged and left to the republisher. */
    public void tombstoneLater(UUID scheduleId) {
        sendLater(tombstoneOf(scheduleId));
    }

    private Change tombstoneOf(UUID scheduleId) {
        return new Change("the tombstone of schedule " + scheduleId, null, null,
                List.of(new RowOutbox.Outgoing(scheduleId.toString(), null, null)),
                () -> publications.remove(scheduleId));
    }
}
