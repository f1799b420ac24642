package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Hooks;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The default priority by source is configuration ({@code jobweaver.api.default-priority.*}): here schedules' jobs are
 * LOW and hooks' NORMAL when their templates name none, and a template's own priority always wins.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class ScheduledJobPriorityTest {

    @Test
    void aSchedulesJobWithoutAPriorityTakesTheConfiguredOne() {
        String scheduleId = Schedules.createOne();

        assertThat(Jobs.get(trigger(scheduleId)).getString("priority")).isEqualTo("LOW");
    }

    @Test
    void aTemplatesOwnPriorityWins() {
        String scheduleId = Schedules.createOne("""
                {"name":"urgent","cron":"* * * * *","job":{"jobType":"SIMULATION","priority":"HIGH",
                "payload":{"steps":[{"action":"LOG","message":"urgent"}]}}}""").getString("id");

        assertThat(Jobs.get(trigger(scheduleId)).getString("priority")).isEqualTo("HIGH");
    }

    @Test
    void aHooksDefaultIsConfigurationToo() {
        Hooks.Created hook = Hooks.createJobHook("configured-priority");

        Response called = Hooks.callSigned(hook.id(), hook.secret(), "{\"n\":\"" + UUID.randomUUID() + "\"}");

        assertThat(called.statusCode()).as(called.asString()).isEqualTo(202);
        assertThat(Jobs.get(called.jsonPath().getString("jobId")).getString("priority")).isEqualTo("NORMAL");
    }

    private static String trigger(String scheduleId) {
        Response response = given().post("/api/schedules/" + scheduleId + "/trigger");
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
        return response.jsonPath().getString("jobId");
    }
}
