package dev.jobweaver.api.platform.db;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/** Reads rows by their ids on the reactive client, for the stores that look up many rows in one statement. */
public final class RowsById {

    private RowsById() {
    }

    /**
     * The rows {@code sql} finds with {@code ids} as its one parameter (a uuid array), each read by {@code read} and
     * keyed by its {@code id} column; an id without a row is absent. Runs on {@code client}, in its transaction if any.
     */
    public static <T> Uni<Map<UUID, T>> find(SqlClient client, String sql, Collection<UUID> ids,
                                             Function<Row, T> read) {
        return client.preparedQuery(sql).execute(Tuple.of(ids.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, T> found = new HashMap<>();
            for (Row row : rows) {
                found.put(row.getUUID("id"), read.apply(row));
            }
            return found;
        });
    }
}
