package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobStatusChangedEvent;
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
        byte[] value = record.getPayload();
        if (value == null) {
            return null;
        }
        RecordOrigin origin = RecordOrigin.of(record, value);
        return switch (EventReader.read(mapper, value, JobStatusChangedEvent.class, EventRules::problem)) {
            case EventReader.Read.Bad<JobStatusChangedEvent> bad -> {
                unusable.add(new Unusable(origin, bad.reason(), bad.detail()));
                yield null;
            }
            case EventReader.Read.Ok<JobStatusChangedEvent> ok -> {
                String keyProblem = EventRules.keyProblem(record.getKey(), ok.event().jobId());
                if (keyProblem != null) {
                    unusable.add(new Unusable(origin, QuarantineReason.INVALID, keyProblem));
                    yield null;
                }
                yield new StatusRecord(ok.event(), origin);
            }
        };
    }
}
