package dev.jobweaver.api.workflow;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A workflow ({@code workflows}, migration V10): its name, tenant and latest version; each version's graph is a
 * {@link WorkflowVersion}. A delete marks the row: the workflow is gone for clients, its versions stay for the runs in
 * flight.
 */
@Entity
@Table(name = "workflows")
public class Workflow extends PanacheEntityBase {

    @Id
    public UUID id;

    public String name;

    public String tenant;

    public int latestVersion;

    public Instant createdAt;

    public Instant updatedAt;

    public Instant deletedAt;
}
