package dev.jobweaver.api.job.persistence;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
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
 * A job as the API knows it: what was submitted, plus the latest state the scheduler reported.
 *
 * <p>{@code statusVersion} is the version of the last {@code JobStatusChangedEvent} applied; an event is applied
 * only when its version is higher, so redelivered or reordered events never move a job backwards.
 */
@Entity
@Table(name = "jobs")
public class JobEntity {

    @Id
    public UUID id;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public JobType type;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public JobPayload instruction;

    @Column(name = "trace_id", nullable = false)
    public String traceId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public JobStatus status;

    @Column(name = "retry_count", nullable = false)
    public int retryCount;

    @Column(name = "max_retries", nullable = false)
    public int maxRetries;

    @Column(nullable = false)
    public int attempts;

    @Column(name = "next_run_at")
    public Instant nextRunAt;

    @Column(name = "last_error")
    public String lastError;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "finished_at")
    public Instant finishedAt;

    @Column(name = "status_version", nullable = false)
    public long statusVersion;

    /** A new job, {@code PENDING}, as accepted from a client. */
    public static JobEntity accepted(UUID id, JobType type, JobPayload instruction, int maxRetries, String traceId,
                                     Instant now) {
        JobEntity job = new JobEntity();
        job.id = id;
        job.type = type;
        job.instruction = instruction;
        job.maxRetries = maxRetries;
        job.traceId = traceId;
        job.status = JobStatus.PENDING;
        job.nextRunAt = now;
        job.createdAt = now;
        job.updatedAt = now;
        return job;
    }
}
