package dev.jobweaver.api.quarantine;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A quarantined record as the API answers it, without its bytes; a field without a value is left out. */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "QuarantinedRecord")
public record QuarantinedRecordView(
        @Schema(description = "the record's id in the review") UUID id,
        @Schema(description = "the topic it was consumed from, where a replay publishes it", example = "job-status")
        String topic,
        @Schema(description = "its partition there", example = "2") int partition,
        @Schema(description = "its offset there", example = "4711") long offset,
        @Schema(description = "its key as text; absent for a record without one") String key,
        @Schema(description = "why it was set aside: UNREADABLE, INVALID, REJECTED_BY_DATABASE, UNPROCESSABLE, or"
                + " UNKNOWN for a record that does not say", example = "UNREADABLE") String reason,
        @Schema(description = "what exactly was wrong, one line") String detail,
        @Schema(description = "the service that set it aside", example = "jobweaver-scheduler") String service,
        @Schema(description = "when it was set aside") Instant quarantinedAt,
        @Schema(description = "its value's length in bytes", example = "412") int size,
        @Schema(description = "KEPT (waiting for review), REPLAYED or DISCARDED") QuarantineState state,
        @Schema(description = "when it was replayed or discarded") Instant stateChangedAt,
        @Schema(description = "who replayed or discarded it") String stateChangedBy) {

    static QuarantinedRecordView of(StoredQuarantinedRecord r) {
        return new QuarantinedRecordView(r.id(), r.topic(), r.partition(), r.offset(), r.key(), r.reason(),
                r.detail().isEmpty() ? null : r.detail(), r.service(), r.quarantinedAt(), r.size(), r.state(),
                r.stateChangedAt(), r.stateChangedBy());
    }
}
