package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.OutgoingRecords;
import dev.jobweaver.common.messaging.Topics;
import io.opentelemetry.context.Context;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Channel;

/**
 * Publishes fired ticks on {@code schedule-fired}, keyed by scheduleId, with an {@code eventId} derived from the
 * tick's jobId and the {@code traceparent} of the tick's span (the connector writes it from the trace context).
 *
 * <p>Through the scheduler's one producer ({@link Channels#SCHEDULER_EVENTS_OUT}, each record naming its topic): it
 * already has the settings a tick needs ({@code acks=all}, idempotence, a bounded delivery timeout), and a second
 * producer would add its own buffer pool, sender thread and connections for a few records a second. The returned
 * {@link Uni} completes when Kafka acknowledged the record; the ticker commits after that.
 */
@ApplicationScoped
public class ScheduleFiredPublisher {

    @Inject @Channel(Channels.SCHEDULER_EVENTS_OUT) MutinyEmitter<Object> events;

    /** Publishes {@code event}; a tick fired again (a round that did not commit) carries the same eventId. */
    public Uni<Void> fired(ScheduleFiredEvent event, Context trace) {
        return events.sendMessage(OutgoingRecords.keyed(Topics.SCHEDULE_FIRED, event.scheduleId(),
                eventId(event.jobId()), event, trace));
    }

    /** The eventId of the tick whose job is {@code jobId}: name-based, so the same tick always carries the same one. */
    public static UUID eventId(UUID jobId) {
        return UUID.nameUUIDFromBytes(("schedule-fired:" + jobId).getBytes(StandardCharsets.UTF_8));
    }
}
