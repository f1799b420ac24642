package dev.jobweaver.api.deadletter;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
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
    public UUID jobId;

    public String tenant;

    /** The job's type as the jobs read model had it ({@code JobType} name). */
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
    public String lastError;

    public Instant failedAt;

    public String traceId;

    /** Times the job was dead-lettered. */
    public int deadCount;

    public Instant requeuedAt;

    public int requeueCount;

    public Instant discardedAt;

    public String discardReason;

    /** The workflow run of a node's job; null for any other job. */
    public UUID workflowRunId;

    public Instant createdAt;

    public Instant updatedAt;
}
