package dev.jobweaver.api.hook;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * An inbound hook ({@code hooks}, migration V12): a URL that, called with a signed request, makes a job from its
 * template, starts a run of its workflow or publishes an application event. Exactly one of {@code job},
 * {@code workflowId} and {@code event} is set.
 *
 * <p>Public fields, as Panache entities have them. A deleted hook keeps its row (so that its id is never served again)
 * but not its secret.
 */
@Entity
@Table(name = "hooks")
public class Hook extends PanacheEntityBase {

    @Id
    public UUID id;

    public String name;

    public String tenant;

    /** The submission body each call's job is made from (JSON text, normalised); null with a workflow. */
    @JdbcTypeCode(SqlTypes.JSON)
    public String job;

    /** The workflow each call starts a run of; null with a job. */
    public UUID workflowId;

    /** The type of the application event each call publishes (migration V26); null with a job or a workflow. */
    public String event;

    /**
     * The signing secret, sealed ({@code SealedSecrets}, this row's id as associated data): every call's HMAC is
     * computed with the secret itself, so it is kept encrypted rather than hashed. Never logged, shown once at
     * creation, cleared by the delete.
     */
    @Column(name = "secret")
    public String sealedSecret;

    public Instant createdAt;

    /** Set by a delete: the hook answers 404 from then on. */
    public Instant deletedAt;

    @Override
    public String toString() {
        // the secret never reaches a log line
        return "Hook[id=" + id + ", name=" + name + ", tenant=" + tenant + ", workflowId=" + workflowId + ", event="
                + event + "]";
    }
}
