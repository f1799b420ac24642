package dev.jobweaver.api.audit;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An audit entry as {@code GET /api/audit} shows it.
 *
 * @param actor the caller: an API key's id and name, a JWT's upn or sub, or {@code anonymous}
 * @param actorTenant the caller's own tenant; null when it was not authenticated
 * @param actorRole the caller's highest role; null when it was not authenticated
 * @param action {@code method} and {@code path}, e.g. {@code POST /api/dead-letters/{jobId}/requeue}
 * @param path the endpoint's path template
 * @param objectId the object the path names ({jobId}, {id}, {runId}), as given
 * @param tenant the tenant the path names, as given
 * @param status the HTTP status answered
 */
@RegisterForReflection
public record AuditView(UUID id, Instant at, String actor, String actorTenant, String actorRole,
                        @Schema(example = "POST /api/dead-letters/{jobId}/requeue") String action, String method,
                        String path, String objectId, String tenant, int status, String traceId) {

    static AuditView of(AuditEntry entry) {
        return new AuditView(entry.id, entry.at, entry.actor, entry.actorTenant, entry.actorRole,
                entry.method + " " + entry.path, entry.method, entry.path, entry.objectId, entry.tenant, entry.status,
                entry.traceId);
    }
}
