package dev.jobweaver.api.workflow;

import dev.jobweaver.common.workflow.OnFailure;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.hibernate.annotations.ColumnTransformer;

/**
 * One version of a workflow ({@code workflow_versions}): its graph with every node's job, written once and never
 * changed, so a run keeps the version it started with whatever comes after.
 */
@Entity
@Table(name = "workflow_versions")
@IdClass(WorkflowVersion.Key.class)
public class WorkflowVersion extends PanacheEntityBase {

    /** The primary key: the workflow and the version. */
    public static class Key implements Serializable {

        public UUID workflowId;
        public int version;

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(workflowId, key.workflowId) && version == key.version;
        }

        @Override
        public int hashCode() {
            return Objects.hash(workflowId, version);
        }
    }

    @Id
    public UUID workflowId;

    @Id
    public int version;

    public String name;

    /** {@code [{"id","job":{...},"dependsOn":[...]}]}: every job validated and normalised (JSON text). */
    // text both ways: Hibernate Reactive reads a JSON column as a Vert.x JsonObject, which an array is not, and the
    // client binds a String of type jsonb as a JSON string
    @ColumnTransformer(read = "cast(nodes as text)", write = "cast(cast(? as text) as jsonb)")
    public String nodes;

    public Integer maxConcurrency;

    @Enumerated(EnumType.STRING)
    public OnFailure onFailure;

    public Instant createdAt;
}
