package dev.jobweaver.api.workflow;

import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.ColumnTransformer;

/**
 * A workflow run ({@code workflow_runs}): what a client reads of it, and its own outbox for {@code workflow-runs}.
 * {@code changeVersion} counts what the API asked of the scheduler through the row (1: start, 2: cancel too, and one
 * more for each cancel after a retry), {@code publishedVersion} what Kafka acknowledged; {@code progressVersion} is
 * the last {@code workflow-progress} version applied.
 */
@Entity
@Table(name = "workflow_runs")
public class WorkflowRun extends PanacheEntityBase {

    @Id
    public UUID id;

    public UUID workflowId;

    public int workflowVersion;

    public String tenant;

    @Enumerated(EnumType.STRING)
    public WorkflowRunStatus status;

    /** The run's input (JSON text), given to every node's job; null without one. */
    // text both ways, as nodes: an input may be any JSON, an array or a scalar too
    @ColumnTransformer(read = "cast(input as text)", write = "cast(cast(? as text) as jsonb)")
    public String input;

    public String traceId;

    public String traceparent;

    /** {@code [{"id","status","jobId"}]} as the last progress reported it (JSON text). */
    // text both ways: Hibernate Reactive reads a JSON column as a Vert.x JsonObject, which an array is not, and the
    // client binds a String of type jsonb as a JSON string
    @ColumnTransformer(read = "cast(nodes as text)", write = "cast(cast(? as text) as jsonb)")
    public String nodes;

    public long progressVersion;

    public int changeVersion;

    public int publishedVersion;

    public Instant publishedAt;

    public boolean cancelRequested;

    public Instant createdAt;

    public Instant updatedAt;

    public Instant finishedAt;

    /** The schedule whose tick or trigger started the run; null for a run started any other way. */
    public UUID scheduleId;

    /** The tick's time (a trigger's instant) when a schedule started the run. */
    public Instant scheduledFor;
}
