package dev.jobweaver.api.schedule;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A schedule as {@code GET /api/schedules/{id}} shows it.
 *
 * @param cron its cron expression; absent for an interval schedule
 * @param interval its ISO-8601 interval; absent for a cron schedule
 * @param job the job each run makes, as normalised when stored; absent with a workflow
 * @param workflowId the workflow each run starts; absent with a job
 * @param nextRunAt its next tick after now; null while it is paused
 * @param version counts the changes stored, 1 when created
 * @param firedCount the runs it made: its ticks' and triggers' jobs, or workflow runs started
 * @param lastFiredAt when it made its last run; null before its first
 */
@RegisterForReflection
public record ScheduleView(UUID id, String name, String tenant,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String cron,
                           @JsonInclude(JsonInclude.Include.NON_NULL) String interval,
                           String timezone, Misfire misfire, Overlap overlap, boolean paused,
                           @JsonInclude(JsonInclude.Include.NON_NULL)
                           @Schema(type = SchemaType.OBJECT, description = "a POST /api/jobs body") JsonNode job,
                           @JsonInclude(JsonInclude.Include.NON_NULL) UUID workflowId,
                           Instant nextRunAt, long version, Instant createdAt, Instant updatedAt,
                           long firedCount, Instant lastFiredAt) {

    static ScheduleView of(StoredSchedule schedule, ScheduleHistory.Fired fired, Instant now) {
        JsonNode job = JsonColumns.tree(schedule.job());
        return new ScheduleView(schedule.id(), schedule.name(), schedule.tenant(), schedule.cron(),
                schedule.interval(), schedule.timezone(), schedule.misfire(), schedule.overlap(), schedule.paused(),
                job, schedule.workflowId(), schedule.nextRunAfter(now), schedule.version(), schedule.createdAt(),
                schedule.updatedAt(), fired.count(), fired.lastAt());
    }
}
