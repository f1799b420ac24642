package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import java.util.List;

/**
 * A usable {@code job-status} event and the record it came from, which is what is quarantined should the database
 * refuse it. Both consumers of {@code job-status} ({@link JobStatusConsumer} and the notification matcher) read their
 * records through {@link #read}, so they agree on which records are usable.
 */
public record StatusRecord(JobStatusChangedEvent event, RecordOrigin origin) {

    /** A record that is no usable event, and why: it goes to the quarantine with its original bytes. */
    public record Unusable(RecordOrigin origin, QuarantineReason reason, String detail) {
    }

    /**
     * The usable event of {@code record}, or null. A record that does not parse, breaks the event rules or is keyed by
     * another job than its own is added to {@code unusable} (another job's key would put it on that job's partition,
     * where applying it could reorder that job's statuses); a tombstone (the compacted topic's mark of a deleted job)
     * is neither usable nor set aside.
     */
    public static StatusRecord read(ObjectMapper mapper, KafkaRecord<String, byte[]> record, List<Unusable> unusable) {
        return switch (consumed(mapper, record, RecordOrigin.of(record, record.getPayload()))) {
            case Consumed.Usable<StatusRecord> usable -> usable.value();
            case Consumed.Refused<StatusRecord> bad -> {
                unusable.add(new Unusable(bad.origin(), bad.reason(), bad.detail()));
                yield null;
            }
            case Consumed.Ignored<StatusRecord> tombstone -> null;
        };
    }

    /** {@link #read} of {@code record}, whose origin is {@code origin}, as a {@link BatchIntake} round takes it. */
    public static Consumed<StatusRecord> consumed(ObjectMapper mapper, KafkaRecord<String, byte[]> record,
                                                  RecordOrigin origin) {
        byte[] value = origin.value();
        if (value == null) {
            return new Consumed.Ignored<>(origin);
        }
        return switch (EventReader.read(mapper, value, JobStatusChangedEvent.class, EventRules::problem)) {
            case EventReader.Read.Bad<JobStatusChangedEvent> bad ->
                    new Consumed.Refused<>(origin, bad.reason(), bad.detail());
            case EventReader.Read.Ok<JobStatusChangedEvent> ok -> {
                String keyProblem = EventRules.keyProblem(record.getKey(), ok.event().jobId());
                yield keyProblem != null ? new Consumed.Refused<>(origin, QuarantineReason.INVALID, keyProblem)
                        : new Consumed.Usable<>(new StatusRecord(ok.event(), origin), origin);
            }
        };
    }
}
