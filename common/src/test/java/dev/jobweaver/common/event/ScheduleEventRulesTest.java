package dev.jobweaver.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The rules of the schedule events and of a scheduled job's origin: what a consumer quarantines. */
class ScheduleEventRulesTest {

    private static final UUID ID = UUID.randomUUID();
    private static final Instant NOW = Instant.parse("2026-11-26T08:00:00Z");

    private static ScheduleEvent schedule(String cron, String interval, String zone, Instant anchor, long version) {
        return new ScheduleEvent(ID, version, cron, interval, zone, anchor, Misfire.FIRE_ONCE, Overlap.ALLOW, false,
                "default", NOW);
    }

    @Test
    void aCronOrAnIntervalSchedulePasses() {
        assertThat(EventRules.problem(schedule("0 2 * * *", null, "Europe/Amsterdam", null, 1))).isNull();
        assertThat(EventRules.problem(schedule(null, "PT1S", null, NOW, 7))).isNull();
    }

    @Test
    void aScheduleNamesWhatItLacksOrCarriesWrongly() {
        assertThat(EventRules.problem(schedule("0 2 * *", null, "UTC", null, 1))).contains("has 4 fields");
        assertThat(EventRules.problem(schedule(null, null, "UTC", null, 1))).isEqualTo("cron or interval is required");
        assertThat(EventRules.problem(schedule(null, "PT1S", "UTC", null, 1)))
                .isEqualTo("anchor is required with an interval");
        assertThat(EventRules.problem(schedule("0 2 * * *", null, "Nowhere/City", null, 1))).startsWith("timezone");
        assertThat(EventRules.problem(schedule("0 2 * * *", null, "UTC", null, 0))).startsWith("version");
        assertThat(EventRules.problem(new ScheduleEvent(ID, 1, "0 2 * * *", null, "UTC", null, null, Overlap.ALLOW,
                false, "default", NOW))).isEqualTo("misfire is required");
        assertThat(EventRules.problem(new ScheduleEvent(null, 1, "0 2 * * *", null, "UTC", null, Misfire.SKIP,
                Overlap.SKIP, false, "default", NOW))).isEqualTo("scheduleId is required");
    }

    @Test
    void aTickNamesWhatItLacks() {
        assertThat(EventRules.problem(new ScheduleFiredEvent(ID, 1, UUID.randomUUID(), NOW, NOW, false))).isNull();
        assertThat(EventRules.problem(new ScheduleFiredEvent(ID, 1, null, NOW, NOW, false)))
                .isEqualTo("jobId is required");
        assertThat(EventRules.problem(new ScheduleFiredEvent(ID, 1, UUID.randomUUID(), null, NOW, true)))
                .isEqualTo("scheduledFor is required");
        assertThat(EventRules.problem(new ScheduleFiredEvent(ID, 1, UUID.randomUUID(),
                Instant.parse("1970-01-01T00:00:00Z"), NOW, false))).startsWith("scheduledFor must be between");
    }

    @Test
    void aScheduleTopicIsKeyedByTheScheduleId() {
        assertThat(EventRules.scheduleKeyProblem(ID.toString(), ID)).isNull();
        assertThat(EventRules.scheduleKeyProblem(null, ID)).contains("no key");
        assertThat(EventRules.scheduleKeyProblem("other", ID)).contains("must be its scheduleId");
    }

    @Test
    void aScheduledJobsOriginNeedsItsScheduleAndTick() {
        var payload = JsonNodeFactory.instance.objectNode();
        payload.putArray("steps").addObject().put("action", "LOG").put("message", "hi");
        JobCreatedEvent good = new JobCreatedEvent(UUID.randomUUID(), JobType.SIMULATION, payload, 0, null, NOW, null,
                new JobOrigin(ID, NOW));
        assertThat(EventRules.problem(good)).isNull();
        JobCreatedEvent noTick = new JobCreatedEvent(UUID.randomUUID(), JobType.SIMULATION, payload, 0, null, NOW,
                null, new JobOrigin(ID, null));
        assertThat(EventRules.problem(noTick)).isEqualTo("origin.scheduledFor is required");
    }
}
