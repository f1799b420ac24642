package dev.jobweaver.api.notification.persistence;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A subscription to a job's state changes (table {@code subscriptions}): exactly one target, its events, its URL. */
@Entity
@Table(name = "subscriptions")
public class Subscription extends PanacheEntityBase {

    @Id
    public UUID id;

    public String tenant;

    @Column(name = "job_id")
    public UUID jobId;

    @Column(name = "schedule_id")
    public UUID scheduleId;

    @Column(name = "workflow_id")
    public UUID workflowId;

    @Column(name = "job_type")
    public String jobType;

    /** The notification events, as {@code NotificationEvent} names. */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public String[] events;

    public String url;

    /** {@code whsec_} and base64 of the signing key; never logged, shown once at creation. */
    public String secret;

    @Column(name = "created_at")
    public Instant createdAt;
}
