package dev.jobweaver.api.schedule.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.schedule.service.ScheduledJobs;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.common.reactive.VertxContexts;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

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
 *   <li>The quarantine rule of every consumer: a record that does not parse, breaks a rule ({@link EventRules}) or is
 *       not keyed by its scheduleId is set aside in {@code jobweaver-quarantine} with its original bytes before its
 *       poll is acknowledged; a tick the database refuses for good is split out ({@link Bisection}) and set aside, and
 *       the ticks beside it are made. A transient failure (database or Kafka unreachable) is retried with back-off
 *       until it succeeds, never skipped.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
public class ScheduleFiredConsumer {

    private static final Logger LOG = Logger.getLogger(ScheduleFiredConsumer.class);
    /** As the read model's consumer: a database outage is waited out, since a channel that gave up stays down. */
    private static final UnaryOperator<Uni<Void>> RETRY_TRANSIENT = Bisection.retryForever(Duration.ofMillis(200),
            Duration.ofSeconds(10));

    /** A usable tick and the record it came from. */
    record TickRecord(ScheduleFiredEvent event, RecordOrigin origin, String traceparent) {
    }

    /** A record that is no usable tick, and why. */
    private record Unusable(RecordOrigin origin, QuarantineReason reason, String detail) {
    }

    private final ScheduledJobs jobs;
    private final Quarantine quarantine;
    private final ObjectMapper mapper;
    private final Bisection<TickRecord> bisection;

    public ScheduleFiredConsumer(ScheduledJobs jobs, Quarantine quarantine, ObjectMapper mapper) {
        this.jobs = jobs;
        this.quarantine = quarantine;
        this.mapper = mapper;
        this.bisection = new Bisection<>(this::round, RETRY_TRANSIENT,
                (item, failure) -> quarantine.send(item.origin(), failure));
    }

    /** The quarantine counters of the consumed topic exist, at zero, before its first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.SCHEDULE_FIRED);
    }

    @Incoming(Channels.SCHEDULE_FIRED_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Unusable> unusable = new ArrayList<>();
        List<TickRecord> ticks = read(batch.getRecords(), unusable);
        Uni<Void> done = setAside(unusable)
                .chain(() -> bisection.apply(ticks))
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().call(failure -> {
                    LOG.errorf(failure, "could not make the jobs of %d tick(s) or quarantine %d record(s); the channel"
                            + " stops here and the records are consumed again from the last committed offset",
                            ticks.size(), unusable.size());
                    return Uni.createFrom().completionStage(() -> batch.nack(failure))
                            .onFailure().recoverWithNull();
                });
        return VertxContexts.backToCaller(done);
    }

    /** One all-or-nothing transaction of {@code ticks}; the unit {@link #bisection} splits. */
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

    /** Publishes every unusable record of a poll to the quarantine; completes once Kafka acknowledged them all. */
    private Uni<Void> setAside(List<Unusable> unusable) {
        if (unusable.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(unusable)
                .onItem().transformToUniAndConcatenate(bad -> RETRY_TRANSIENT.apply(Uni.createFrom().deferred(
                        () -> quarantine.send(bad.origin(), bad.reason(), bad.detail()))))
                .collect().last()
                .replaceWithVoid();
    }

    /** The usable ticks of a poll, in order; the records that are none go to {@code unusable}. */
    private List<TickRecord> read(List<KafkaRecord<String, byte[]>> records, List<Unusable> unusable) {
        List<TickRecord> ticks = new ArrayList<>(records.size());
        for (KafkaRecord<String, byte[]> record : records) {
            byte[] value = record.getPayload();
            RecordOrigin origin = RecordOrigin.of(record, value);
            ScheduleFiredEvent event;
            switch (EventReader.read(mapper, value, ScheduleFiredEvent.class, EventRules::problem)) {
                case EventReader.Read.Bad<ScheduleFiredEvent> bad -> {
                    unusable.add(new Unusable(origin, bad.reason(), bad.detail()));
                    continue;
                }
                case EventReader.Read.Ok<ScheduleFiredEvent> ok -> event = ok.event();
            }
            String keyProblem = EventRules.scheduleKeyProblem(record.getKey(), event.scheduleId());
            if (keyProblem != null) {
                unusable.add(new Unusable(origin, QuarantineReason.INVALID, keyProblem));
                continue;
            }
            ticks.add(new TickRecord(event, origin, traceparent(record)));
        }
        return ticks;
    }

    private static String traceparent(KafkaRecord<String, byte[]> record) {
        Header header = record.getHeaders().lastHeader(Headers.TRACEPARENT);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
