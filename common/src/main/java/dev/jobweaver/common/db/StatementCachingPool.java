package dev.jobweaver.common.db;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.spi.PgDriver;
import io.vertx.sqlclient.Pool;
import jakarta.inject.Singleton;

/**
 * Creates each service's PostgreSQL pool as Quarkus would, but caches the prepared statements of its longest SQL too.
 *
 * <p>Why: with {@code quarkus.datasource.reactive.cache-prepared-statements} on (each service's configuration), a
 * connection parses a statement once and then only binds and executes it; without it every execution is parsed,
 * analysed and rewritten again. The client caches statements of at most 2,048 characters by default, and the
 * scheduler's dispatch claims, the costliest statements to prepare, are longer: {@link #SQL_LIMIT} covers every
 * statement of the three services. The plans themselves are still made per execution
 * ({@code plan_cache_mode=force_custom_plan}, same configuration): only the parsing is saved.
 *
 * <p>Guarantee: the pool's options, sizes and connect options are Quarkus' own; only the cache's length limit changes.
 * A statement longer than the limit runs uncached, as before. Thread: called once per pool, when the pool bean is
 * first created.
 */
@Singleton
public class StatementCachingPool implements PgPoolCreator {

    /** Characters of SQL up to which a statement is cached; the longest of the services has about 3,100. */
    static final int SQL_LIMIT = 8192;

    @Override
    public Pool create(Input input) {
        input.pgConnectOptionsList().forEach(options -> options.setPreparedStatementCacheSqlLimit(SQL_LIMIT));
        return PgDriver.INSTANCE.createPool(input.vertx(), input.pgConnectOptionsList(), input.poolOptions());
    }
}
