package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Schedules;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A schedule may name a workflow instead of a job: each tick starts one run of it (the run's id is the one the tick's
 * job would have, so a tick consumed twice starts one run), a trigger starts one at once, and the run carries its
 * schedule to the scheduler for {@code overlap: SKIP}. The schedule's tenant is the workflow's.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ScheduledWorkflowRunsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Inject
    ObjectMapper mapper;

    @Inject
    MeterRegistry registry;

    @Test
    void aScheduleNamingAWorkflowTakesTheWorkflowsTenantAndShowsTheWorkflow() {
        String workflowId = Workflows.createOne(tenantWorkflow("etl-team")).getString("id");

        JsonPath created = Schedules.createOne(workflowSchedule(workflowId, ""));

        assertThat(created.getString("workflowId")).isEqualTo(workflowId);
        assertThat(created.getString("tenant")).isEqualTo("etl-team");
        assertThat(created.getMap("$")).doesNotContainKey("job");
        JsonPath read = given().get("/api/schedules/" + created.getString("id")).then().statusCode(200).extract()
                .jsonPath();
        assertThat(read.getString("workflowId")).isEqualTo(workflowId);
    }

    @Test
    void aTenantOtherThanTheWorkflowsIsRefusedAndNothingStored() {
        String workflowId = Workflows.createOne(tenantWorkflow("etl-team")).getString("id");

        Response response = Schedules.create(workflowSchedule(workflowId, "\"tenant\":\"other\","));

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_SCHEDULE_REQUEST");
        assertThat(response.jsonPath().getString("message"))
                .contains("tenant 'other' differs from the tenant of workflow " + workflowId + ", 'etl-team'");
        assertThat(given().queryParam("tenant", "other").get("/api/schedules").jsonPath().getList("schedules"))
                .as("nothing stored").isEmpty();
    }

    @Test
    void aTickStartsOneRunOfTheWorkflowEvenWhenConsumedTwice() throws Exception {
        String workflowId = Workflows.createOne();
        UUID scheduleId = UUID.fromString(Schedules.createOne(workflowSchedule(workflowId, "")).getString("id"));
        Instant tick = Instant.now().truncatedTo(ChronoUnit.MINUTES).plusSeconds(60);
        UUID runId = JobIds.forTick(scheduleId, tick);
        double made = Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "tick");
        try (KafkaProbe runs = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            ScheduleFiredEvent fired = new ScheduleFiredEvent(scheduleId, 1, runId, tick, Instant.now(), false);
            Schedules.fire(mapper, fired);
            Schedules.fire(mapper, fired);

            List<ConsumerRecord<String, byte[]>> records = runs.pollUntil(
                    seen -> seen.stream().anyMatch(r -> runId.toString().equals(r.key())), TIMEOUT);
            WorkflowRunEvent start = mapper.readValue(records.stream().filter(r -> runId.toString().equals(r.key()))
                    .findFirst().orElseThrow().value(), WorkflowRunEvent.class);
            assertThat(start.kind()).isEqualTo(WorkflowRunEvent.Kind.START);
            assertThat(start.workflowId()).hasToString(workflowId);
            assertThat(start.scheduleId()).as("for the scheduler's overlap check").isEqualTo(scheduleId);

            JsonPath run = Workflows.run(runId.toString());
            assertThat(run.getString("scheduleId")).isEqualTo(scheduleId.toString());
            assertThat(Instant.parse(run.getString("scheduledFor"))).isEqualTo(tick);
            assertThat(run.getString("workflowId")).isEqualTo(workflowId);
            await().atMost(TIMEOUT).until(() -> Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "tick")
                    >= made + 1);
            runs.pollFor(Duration.ofSeconds(2));
            assertThat(runs.withKey(runId.toString())).as("one START for the tick consumed twice").hasSize(1);
        }
        assertThat(Jobs.count(registry, "jobweaver.schedule.jobs", "origin", "tick")).isEqualTo(made + 1);
        assertThat(given().get("/api/workflows/" + workflowId + "/runs")
                .jsonPath().getList("runs")).hasSize(1);
        assertThat(Schedules.jobsOf(scheduleId.toString()).getList("jobs")).as("no job made").isEmpty();
    }

    @Test
    void aTriggerStartsARunAtOnceAndAnswersIt() {
        String workflowId = Workflows.createOne();
        String scheduleId = Schedules.createOne(workflowSchedule(workflowId, "\"paused\":true,")).getString("id");

        Response response = given().post("/api/schedules/" + scheduleId + "/trigger");

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(202);
        String runId = response.jsonPath().getString("runId");
        assertThat(response.jsonPath().getString("jobId")).isNull();
        assertThat(response.jsonPath().getString("traceId")).hasSize(32);
        assertThat(response.header("Location")).isEqualTo("/api/workflow-runs/" + runId);
        JsonPath run = Workflows.run(runId);
        assertThat(run.getString("scheduleId")).isEqualTo(scheduleId);
        assertThat(run.getString("traceId")).isEqualTo(response.jsonPath().getString("traceId"));
        assertThat(run.getString("status")).isIn("PENDING", "RUNNING");
    }

    @Test
    void aScheduleWhoseWorkflowWasDeletedStartsNothing() {
        String workflowId = Workflows.createOne();
        String scheduleId = Schedules.createOne(workflowSchedule(workflowId, "")).getString("id");
        given().delete("/api/workflows/" + workflowId).then().statusCode(204);
        double ignored = Jobs.count(registry, "jobweaver.schedule.ticks.ignored", "reason", "no-workflow");

        Response response = given().post("/api/schedules/" + scheduleId + "/trigger");

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.WORKFLOW_NOT_FOUND");
        assertThat(response.jsonPath().getString("message")).contains(scheduleId);
        assertThat(Jobs.count(registry, "jobweaver.schedule.ticks.ignored", "reason", "no-workflow"))
                .isEqualTo(ignored + 1);
        assertThat(given().get("/api/workflows/" + workflowId + "/runs").statusCode()).isEqualTo(404);
    }

    private static String tenantWorkflow(String tenant) {
        return Workflows.VALID.replaceFirst("\\{\"name\":\"etl\",", "{\"name\":\"etl\",\"tenant\":\"" + tenant + "\",");
    }

    private static String workflowSchedule(String workflowId, String extra) {
        return "{\"name\":\"nightly etl\",\"cron\":\"0 2 * * *\"," + extra + "\"workflowId\":\"" + workflowId + "\"}";
    }
}
