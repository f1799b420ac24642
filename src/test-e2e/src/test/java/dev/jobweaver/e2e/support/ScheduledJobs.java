package dev.jobweaver.e2e.support;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The jobs a schedule made, read from the API's {@code jobs} table: one row per job, with its tick. */
public final class ScheduledJobs {

    private ScheduledJobs() {
    }

    /**
     * One job of a schedule.
     *
     * @param scheduledFor its tick
     * @param createdAt when the API stored it
     */
    public record Row(UUID jobId, Instant scheduledFor, Instant createdAt, String status) {

        /** Milliseconds from the tick to the job stored in the API. */
        public double lagMs() {
            return java.time.Duration.between(scheduledFor, createdAt).toNanos() / 1e6;
        }
    }

    /** Every job of {@code scheduleId}, by tick. */
    public static List<Row> of(UUID scheduleId) {
        List<Row> rows = new ArrayList<>();
        try (Connection c = E2ePlatform.database("jobweaver_api");
             PreparedStatement query = c.prepareStatement("SELECT id, scheduled_for, created_at, status FROM jobs"
                     + " WHERE schedule_id = ? ORDER BY scheduled_for, id")) {
            query.setObject(1, scheduleId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getObject(1, UUID.class), rs.getTimestamp(2).toInstant(),
                            rs.getTimestamp(3).toInstant(), rs.getString(4)));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the jobs of schedule " + scheduleId, e);
        }
        return rows;
    }
}
