package dev.jobweaver.api.deadletter;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The answer to {@code POST /api/dead-letters/requeue}.
 *
 * @param requeued how many dead letters were requeued
 * @param jobIds their jobs, newest failure first
 * @param skipped workflow nodes' jobs the filter matched, left OPEN (a node runs again in a new run)
 */
@RegisterForReflection
@Schema(name = "DeadLettersRequeued")
public record DeadLettersRequeued(@Schema(example = "2") int requeued, List<UUID> jobIds,
                                  @Schema(example = "0") long skipped) {
}
