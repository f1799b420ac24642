package dev.jobweaver.api.audit;

import io.quarkus.hibernate.reactive.panache.PanacheQuery;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The audit log: its writes (one prepared statement on the reactive client, independent of any Hibernate session the
 * request left behind) and its reads (Panache, in the caller's reactive session).
 */
@ApplicationScoped
public class AuditRepository implements PanacheRepositoryBase<AuditEntry, UUID> {

    private static final String INSERT = """
            INSERT INTO audit_log (id, at, actor, actor_tenant, actor_role, method, path, object_id, tenant, status,
                                   trace_id)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)""";
    private static final String DELETE_OLDER = """
            DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < $1 LIMIT $2)""";

    /** What a listing is filtered by; null fields match everything. */
    public record Filter(String actor, String tenant, String method, String path, Instant since, Instant until) {
    }

    private final Pool pool;

    public AuditRepository(Pool pool) {
        this.pool = pool;
    }

    /** Writes {@code entry}. */
    public Uni<Void> insert(AuditEntry entry) {
        Tuple values = Tuple.tuple().addUUID(entry.id).addOffsetDateTime(utc(entry.at)).addString(entry.actor)
                .addString(entry.actorTenant).addString(entry.actorRole).addString(entry.method).addString(entry.path)
                .addString(entry.objectId).addString(entry.tenant).addInteger(entry.status).addString(entry.traceId);
        return pool.preparedQuery(INSERT).execute(values).replaceWithVoid();
    }

    /** One page of the entries {@code filter} matches, newest first. */
    public Uni<List<AuditEntry>> page(Filter filter, int page, int size) {
        return query(filter).page(Page.of(page, size)).list();
    }

    /** How many entries {@code filter} matches. */
    public Uni<Long> count(Filter filter) {
        return query(filter).count();
    }

    /** Deletes at most {@code limit} entries older than {@code cutoff}; how many. */
    public Uni<Integer> deleteOlderThan(Instant cutoff, int limit) {
        return pool.preparedQuery(DELETE_OLDER).execute(Tuple.of(utc(cutoff), limit)).map(rows -> rows.rowCount());
    }

    private PanacheQuery<AuditEntry> query(Filter filter) {
        Where where = new Where()
                .and("actor = :actor", "actor", filter.actor())
                // the actions of the tenant's callers and the actions on its objects
                .and("(tenant = :tenant or actorTenant = :tenant)", "tenant", filter.tenant())
                .and("method = :method", "method", filter.method())
                .and("path = :path", "path", filter.path())
                .and("at >= :since", "since", filter.since())
                .and("at < :until", "until", filter.until());
        Sort order = Sort.descending("at", "id");
        return where.clauses.isEmpty() ? findAll(order)
                : find(String.join(" and ", where.clauses), order, where.parameters);
    }

    /** A filter's clauses and their parameters, each added only when its value is given. */
    private static final class Where {

        final List<String> clauses = new ArrayList<>();
        final Parameters parameters = new Parameters();

        Where and(String clause, String parameter, Object value) {
            if (value != null) {
                clauses.add(clause);
                parameters.and(parameter, value);
            }
            return this;
        }
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
