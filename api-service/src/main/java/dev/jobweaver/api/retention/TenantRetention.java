package dev.jobweaver.api.retention;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A tenant's override of the configured retentions ({@code tenant_retention}, migration V27). A null period is the
 * configured default. Public fields, as Panache entities have them.
 */
@Entity
@Table(name = "tenant_retention")
public class TenantRetention extends PanacheEntityBase {

    @Id
    public String tenant;

    /** How long the tenant's COMPLETED jobs and runs are kept, in milliseconds; null for the default. */
    public Long completedAfterMs;

    /** How long the tenant's FAILED, CANCELLED and REJECTED jobs and runs are kept, in milliseconds; null for the default. */
    public Long failedAfterMs;

    public Instant updatedAt;
}
