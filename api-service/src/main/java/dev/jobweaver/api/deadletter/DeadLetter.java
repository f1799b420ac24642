package dev.jobweaver.api.deadletter;

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
 * A job that exhausted its retries ({@code dead_letters}, migration V15), one row per job, with its latest failure and
 * its review.
 *
 * <p>Public fields, as Panache entities have them. Read and reviewed (requeue, discard) here; stored and reopened from
 * {@code job-dead-letter} by {@link DeadLetterStatements}, whose one statement per poll applies a whole batch.
 */
@Entity
@Table(name = "dead_letters")
public class DeadLetter extends PanacheEntityBase {

    @Id
    @Column(name = "job_id")
    public UUID jobId;

    public String tenant;

    /** The job's type as the jobs read model had it ({@code JobType} name). */
    @Column(name = "job_type")
    public String jobType;

    /** The job's labels (a JSON object of strings), or null. */
    @JdbcTypeCode(SqlTypes.JSON)
    public String labels;

    @Enumerated(EnumType.STRING)
    public DeadLetterState state;

    /** The error of the last attempt, as the scheduler reported it. */
    public String reason;

    /** Attempts the job made in all, across requeues. */
    public int attempts;

    /** The read model's last error of the job, or the reason when the read model had none yet. */
    @Column(name = "last_error")
    public String lastError;

    @Column(name = "failed_at")
    public Instant failedAt;

    @Column(name = "trace_id")
    public String traceId;

    /** Times the job was dead-lettered. */
    @Column(name = "dead_count")
    public int deadCount;

    @Column(name = "requeued_at")
    public Instant requeuedAt;

    @Column(name = "requeue_count")
    public int requeueCount;

    @Column(name = "discarded_at")
    public Instant discardedAt;

    @Column(name = "discard_reason")
    public String discardReason;

    /** The workflow run of a node's job; null for any other job. */
    @Column(name = "workflow_run_id")
    public UUID workflowRunId;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;
}
