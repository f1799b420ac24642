package dev.jobweaver.api.workflow;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/**
 * A workflow ({@code workflows}, migrations V10 and V26): its name, tenant, triggers and latest version; each version's
 * graph is a {@link WorkflowVersion}. A delete marks the row: the workflow is gone for clients, its versions stay for
 * the runs in flight.
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

    /**
     * The application event types each event of which (of this tenant) starts a run, as the latest version's definition
     * names them; null for none, so that the workflow is in no entry of the lookup's index.
     */
    @JdbcTypeCode(SqlTypes.ARRAY)
    public String[] triggers;
}
