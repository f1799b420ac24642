package dev.jobweaver.api.schedule;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Makes the job of every tick on {@code schedule-fired} ({@link ScheduledJobs}): one job per tick, whose id is the
 * tick's, in the tick's trace (the record's {@code traceparent}).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll's ticks are made in one transaction and the poll is acknowledged after its commit, so its offsets are
 *       committed only then; a crash before consumes them again, and a tick made twice makes one job (its id is
 *       derived from the tick).</li>
 *   <li>A tick of a deleted or unknown schedule, or of a paused one, makes no job and is counted
 *       ({@code jobweaver_schedule_ticks_ignored_total}).</li>
 *   <li>The quarantine rule ({@link BatchIntake}): a record that does not parse, breaks a rule ({@link EventRules})
 *       or is not keyed by its scheduleId is set aside in {@code jobweaver-quarantine} with its original bytes; a tick
 *       the database refuses for good is split out and set aside, and the ticks beside it are made. A transient
 *       failure is retried with back-off until it succeeds, never skipped.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class ScheduleFiredConsumer {

    /** A usable tick and the trace context its record carries. */
    record TickRecord(ScheduleFiredEvent event, String traceparent) {
    }

    private final ScheduledJobs jobs;
    private final BatchIntake<TickRecord> intake;

    public ScheduleFiredConsumer(ScheduledJobs jobs, Quarantine quarantine, ObjectMapper mapper) {
        this.jobs = jobs;
        this.intake = new BatchIntake<>(Channels.SCHEDULE_FIRED_IN, quarantine, BatchIntake.events(mapper,
                ScheduleFiredEvent.class, EventRules::problem,
                (key, event) -> EventRules.scheduleKeyProblem(key, event.scheduleId()),
                (record, event) -> new TickRecord(event, traceparent(record))), this::round);
        quarantine.register(Topics.SCHEDULE_FIRED);
    }

    @Incoming(Channels.SCHEDULE_FIRED_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }

    /** One all-or-nothing transaction of {@code ticks}; the unit the intake splits. */
    private Uni<Void> round(List<TickRecord> ticks) {
        List<ScheduledJobs.Run> runs = new ArrayList<>(ticks.size());
        for (TickRecord tick : ticks) {
            ScheduleFiredEvent event = tick.event();
            runs.add(new ScheduledJobs.Run(event.scheduleId(), event.jobId(), event.scheduledFor(),
                    event.catchUp() ? ScheduledJobs.Kind.CATCH_UP : ScheduledJobs.Kind.TICK, Context.root(),
                    tick.traceparent()));
        }
        return jobs.make(runs).replaceWithVoid();
    }

    private static String traceparent(KafkaRecord<String, byte[]> record) {
        Header header = record.getHeaders().lastHeader(Headers.TRACEPARENT);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
