package dev.jobweaver.api.event;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The answer to {@code POST /api/events}: the event's id and the runs it started (the same for a repeat). */
@RegisterForReflection
public record EventPublished(
        @Schema(description = "the event's id: the one given, or the UUID made for it") String eventId,
        @Schema(description = "the runs the event started, one per workflow whose triggers name its type; empty"
                + " when none does") List<UUID> runs) {
}
