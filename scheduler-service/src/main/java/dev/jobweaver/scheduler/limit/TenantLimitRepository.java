package dev.jobweaver.scheduler.limit;

import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.event.TenantLimitEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** SQL on {@code tenant_limits}, the tenants' limits as the API published them; reactive, nothing blocks. */
@ApplicationScoped
public class TenantLimitRepository {

    // One statement for a poll; a row changes only for a higher version, so a stale or repeated record changes
    // nothing. A removed limit is stored as a row without max_running, which keeps its version.
    private static final String UPSERT = "INSERT INTO tenant_limits (tenant, max_running, version, changed_at)"
            + " SELECT * FROM unnest($1::text[], $2::int4[], $3::int8[], $4::timestamptz[])"
            + " ON CONFLICT (tenant) DO UPDATE SET max_running = EXCLUDED.max_running, version = EXCLUDED.version,"
            + " changed_at = EXCLUDED.changed_at WHERE tenant_limits.version < EXCLUDED.version"
            + " RETURNING tenant";

    @Inject Pool pool;

    /**
     * Stores each tenant's newest limit among {@code events} unless a version as high is stored; one statement, one
     * transaction.
     *
     * @return how many tenants' limits changed
     */
    public Uni<Integer> applyAll(List<TenantLimitEvent> events) {
        // A statement may change a row once: the newest event of each tenant in the poll.
        Map<String, TenantLimitEvent> newest = new LinkedHashMap<>();
        for (TenantLimitEvent e : events) {
            newest.merge(e.tenant(), e, (a, b) -> b.version() > a.version() ? b : a);
        }
        if (newest.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<TenantLimitEvent> rows = new ArrayList<>(newest.values());
        Tuple arrays = Tuple.from(new Object[] {
                Columns.of(rows, TenantLimitEvent::tenant, String[]::new),
                Columns.of(rows, TenantLimitEvent::maxRunning, Integer[]::new),
                Columns.of(rows, TenantLimitEvent::version, Long[]::new),
                Columns.of(rows, e -> OffsetDateTime.ofInstant(e.changedAt(), ZoneOffset.UTC),
                        OffsetDateTime[]::new)});
        return pool.preparedQuery(UPSERT).execute(arrays).map(result -> result.rowCount());
    }
}
