package dev.jobweaver.bench;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/**
 * Runs a query whose one parameter is the array of {@code = ANY(?)} over a bench's job ids, {@link #CHUNK} ids at a
 * time, for {@link PlatformDb} and the chaos run's reader alike.
 */
public final class IdChunks {

    /** Ids per {@code = ANY(?)} query. */
    public static final int CHUNK = 5_000;

    private IdChunks() {
    }

    /** One row handler. */
    @FunctionalInterface
    public interface RowHandler {
        void row(ResultSet rs) throws SQLException;
    }

    /** Runs {@code sql} on {@code connection} for every chunk of {@code ids}, each row to {@code handler}. */
    public static void query(Connection connection, String sql, Collection<UUID> ids, RowHandler handler)
            throws SQLException {
        List<UUID> all = List.copyOf(ids);
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int from = 0; from < all.size(); from += CHUNK) {
                List<UUID> chunk = all.subList(from, Math.min(all.size(), from + CHUNK));
                Array array = connection.createArrayOf("uuid", chunk.toArray());
                statement.setArray(1, array);
                try (ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        handler.row(rs);
                    }
                }
                array.free();
            }
        }
    }

    /** The timestamp in {@code column}, or null where the row has none. */
    public static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
