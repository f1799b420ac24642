package dev.jobweaver.api.notification;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A subscription to jobs' state changes, or to a workflow's runs' ends (table {@code subscriptions}): exactly one
 * target, its events, its URL.
 */
@Entity
@Table(name = "subscriptions")
public class Subscription extends PanacheEntityBase {

    @Id
    public UUID id;

    public String tenant;

    public UUID jobId;

    public UUID scheduleId;

    public UUID workflowId;

    public String jobType;

    /** The events, as {@link NotificationEvent#wireName()}s: {@code COMPLETED}, {@code workflow.failed}. */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public String[] events;

    public String url;

    /**
     * The signing secret ({@code whsec_} and base64 of the key), sealed ({@code SealedSecrets}, this row's id as
     * associated data): the deliveries are signed with the secret itself, so it is kept encrypted rather than hashed.
     * Opened only by the sender ({@link DeliveryStore}); never logged.
     */
    @Column(name = "secret")
    public String sealedSecret;

    /** The secret in clear, set on a subscription just created only, for the one answer that shows it. */
    @Transient
    public String secret;

    public Instant createdAt;
}
