package dev.jobweaver.api.schedule;

import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A recurring schedule ({@code schedules}, migration V8): its definition, owned by the API, and how far its timing has
 * reached Kafka. The row is its own outbox: {@code version} counts the changes stored, {@code publishedVersion} the
 * last one Kafka acknowledged on {@code schedules}.
 *
 * <p>Public fields, as Panache entities have them; Hibernate Reactive reads and writes them through the accessors it
 * generates. {@code version} is not a JPA {@code @Version}: a change takes the row's lock first
 * ({@link ScheduleRepository#findLiveForUpdate}), so changes are counted one after the other instead of failing.
 */
@Entity
@Table(name = "schedules")
public class Schedule extends PanacheEntityBase {

    @Id
    public UUID id;

    public String name;

    public String tenant;

    /** A cron expression, or null for an interval schedule. */
    public String cron;

    /** An ISO-8601 duration, or null for a cron schedule. */
    @Column(name = "interval_text")
    public String interval;

    public String timezone;

    /** The origin of an interval schedule's ticks: its creation, or the last change of its interval. */
    public Instant anchor;

    @Enumerated(EnumType.STRING)
    public Misfire misfire;

    @Enumerated(EnumType.STRING)
    public Overlap overlap;

    public boolean paused;

    /** The submission body each tick's job is made from (JSON text, normalised); null with a workflow. */
    @JdbcTypeCode(SqlTypes.JSON)
    public String job;

    /** The workflow each tick would start instead of a job; null with a job. */
    public UUID workflowId;

    public long version;

    public long publishedVersion;

    public Instant publishedAt;

    public Instant createdAt;

    public Instant updatedAt;

    /** Set by a delete; the row goes once its tombstone is acknowledged. */
    public Instant deletedAt;
}
