package dev.jobweaver.scheduler.schedule;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.scheduler.schedule.ScheduleService.ScheduleChange;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code schedules} (the API's schedules' timing, compacted, keyed by scheduleId), one poll at a time: a poll
 * is applied in one transaction ({@link ScheduleService#applyAll}) and acknowledged after the commit.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record without a value is a tombstone: its schedule was deleted, and so is its timer. Its key must be a
 *       scheduleId.</li>
 *   <li>A record that is no usable {@link ScheduleEvent} ({@link EventRules}, keyed by its scheduleId), or a tombstone
 *       whose key is no scheduleId, is quarantined before any of it reaches SQL; a usable one that the database refuses
 *       for good is found by splitting the poll ({@link BatchIntake}) and quarantined alone, while the records
 *       beside it are applied, in order.</li>
 *   <li>Database failures are retried with backoff: the partition waits, nothing is skipped.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The channel calls {@link #consume} on its event loop, one poll at a time; the round runs as
 * {@link BatchIntake} says.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class ScheduleEventConsumer {

    private final BatchIntake<ScheduleChange> intake;

    public ScheduleEventConsumer(ScheduleService schedules, Quarantine quarantine, ObjectMapper mapper) {
        BatchIntake.Reader<ScheduleChange> events = BatchIntake.events(mapper, ScheduleEvent.class,
                EventRules::problem, (key, event) -> EventRules.scheduleKeyProblem(key, event.scheduleId()),
                (record, event) -> new ScheduleChange(event.scheduleId(), event));
        this.intake = new BatchIntake<>(Channels.SCHEDULES_IN, quarantine,
                (record, origin) -> origin.value() == null ? tombstone(origin) : events.read(record, origin),
                changes -> schedules.applyAll(changes).replaceWithVoid());
        quarantine.register(Topics.SCHEDULES);
    }

    @Incoming(Channels.SCHEDULES_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }

    /** A record without a value: the deletion of the schedule its key names. */
    private static Consumed<ScheduleChange> tombstone(RecordOrigin origin) {
        UUID scheduleId = uuid(origin.key());
        return scheduleId != null ? new Consumed.Usable<>(new ScheduleChange(scheduleId, null), origin)
                : new Consumed.Refused<>(origin, QuarantineReason.INVALID,
                        "a tombstone's key must be the deleted scheduleId, got "
                                + (origin.key() == null ? "no key" : "'" + origin.key() + "'"));
    }

    private static UUID uuid(String key) {
        if (key == null || key.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(key);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
