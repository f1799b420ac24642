package dev.jobweaver.api.tenant;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * A tenant's concurrency limit ({@code tenant_limits}, migration V11) and how far it has reached Kafka. The row is its
 * own outbox: {@code version} counts the changes stored, {@code publishedVersion} the last one Kafka acknowledged on
 * {@code tenant-limits}. A removed limit keeps its row with {@code maxRunning} null, so that its event gets the next
 * version.
 *
 * <p>Public fields, as Panache entities have them. Read here; written by {@link TenantLimitStatements}, whose single
 * statements count concurrent changes one after the other.
 */
@Entity
@Table(name = "tenant_limits")
public class TenantLimit extends PanacheEntityBase {

    @Id
    public String tenant;

    /** At most this many of the tenant's jobs run at once; null once the limit is removed. */
    public Integer maxRunning;

    public long version;

    public long publishedVersion;

    public Instant publishedAt;

    public Instant updatedAt;
}
