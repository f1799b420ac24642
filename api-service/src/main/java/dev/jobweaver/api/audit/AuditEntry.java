package dev.jobweaver.api.audit;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * One audited action ({@code audit_log}, migration V19): who called which operator or admin endpoint, when, on what,
 * and what it was answered. Written by {@code AuditLog} with one statement on the reactive client, read here with
 * Panache. Public fields, as Panache entities have them.
 */
@Entity
@Table(name = "audit_log")
public class AuditEntry extends PanacheEntityBase {

    @Id
    public UUID id;

    public Instant at;

    /** The caller's name, or {@code anonymous}. */
    public String actor;

    /** The caller's own tenant; null when not authenticated. */
    public String actorTenant;

    /** The caller's highest role; null when not authenticated. */
    public String actorRole;

    public String method;

    /** The endpoint's path template, e.g. {@code /api/dead-letters/{jobId}/requeue}. */
    public String path;

    /** The object the path names, as given. */
    public String objectId;

    /** The tenant the path names, as given. */
    public String tenant;

    public int status;

    public String traceId;
}
