package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.WebhookReceiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A subscription to a workflow hears the end of each of its runs ({@code workflow.completed}, {@code workflow.failed},
 * {@code workflow.cancelled}) it asked for, as a signed webhook through the deliveries' pipeline: exactly one delivery
 * per subscription and end, even when the scheduler's progress event that ends the run is consumed twice; a run
 * retried tells each of its ends. The run's
 * status is driven by publishing the scheduler's progress events on {@code workflow-progress}.
 */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class RunEndNotificationTest extends DeliveryTestSupport {

    private UUID startedRun(String workflowId) {
        return UUID.fromString(Workflows.start(workflowId, "{}").getString("runId"));
    }

    private void report(UUID runId, String workflowId, long version, WorkflowRunStatus status, int times) {
        WorkflowProgressEvent event = Workflows.progressEvent(runId, workflowId, version, status,
                Map.of("extract", NodeStatus.COMPLETED), List.of());
        for (int i = 0; i < times; i++) {
            KafkaProbe.sendAll(List.of(Workflows.progress(mapper, event)));
        }
    }

    @Test
    void aRunsEndIsDeliveredOncePerSubscriptionSignedWithWhatItCameTo() throws Exception {
        String workflowId = Workflows.createOne();
        String both = Subscriptions.subscribe(receiver, "both", "workflowId", workflowId, "workflow.completed",
                "workflow.failed");
        Subscriptions.subscribe(receiver, "failures", "workflowId", workflowId, "workflow.failed");
        UUID completed = startedRun(workflowId);
        String traceId = Workflows.run(completed.toString()).getString("traceId");

        report(completed, workflowId, 1, WorkflowRunStatus.RUNNING, 1);
        // the end consumed twice, as after a redelivery
        report(completed, workflowId, 2, WorkflowRunStatus.COMPLETED, 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.count("both", "workflow.completed") >= 1);

        WebhookReceiver.Received delivery = receiver.receivedBy("both").getFirst();
        assertThat(delivery.verified()).as(delivery.problem()).isTrue();
        JsonNode body = mapper.readTree(delivery.body());
        assertThat(body.get("type").asText()).isEqualTo("workflow.completed");
        assertThat(body.get("runId").asText()).isEqualTo(completed.toString());
        assertThat(body.get("workflowId").asText()).isEqualTo(workflowId);
        assertThat(body.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(body.get("traceId").asText()).isEqualTo(traceId);
        assertThat(body.get("subscriptionId").asText()).isEqualTo(both);
        assertThat(body.hasNonNull("finishedAt")).isTrue();

        UUID failed = startedRun(workflowId);
        report(failed, workflowId, 1, WorkflowRunStatus.FAILED, 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.count("both", "workflow.failed") >= 1
                && receiver.count("failures", "workflow.failed") >= 1);
        assertThat(mapper.readTree(receiver.receivedBy("failures").getFirst().body()).get("runId").asText())
                .isEqualTo(failed.toString());

        Thread.sleep(1500); // a second delivery of either end would have come by now
        assertThat(receiver.receivedBy("both")).extracting(WebhookReceiver.Received::type)
                .containsExactlyInAnyOrder("workflow.completed", "workflow.failed");
        assertThat(receiver.receivedBy("failures")).as("completed was not asked for")
                .extracting(WebhookReceiver.Received::type).containsExactly("workflow.failed");
        List<Map<String, Object>> log = Subscriptions.log(both);
        assertThat(log).extracting(line -> line.get("runId")).contains(completed.toString(), failed.toString());
    }

    @Test
    void aRetriedRunTellsEachOfItsEnds() throws Exception {
        String workflowId = Workflows.createOne();
        Subscriptions.subscribe(receiver, "ends", "workflowId", workflowId, "workflow.completed", "workflow.failed");
        UUID run = startedRun(workflowId);

        report(run, workflowId, 1, WorkflowRunStatus.FAILED, 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.count("ends", "workflow.failed") >= 1);
        // retried, and it fails again: its RUNNING (version 2) superseded in the poll that brings the new end, so the
        // row shows FAILED before and after; the end consumed twice
        report(run, workflowId, 3, WorkflowRunStatus.FAILED, 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.count("ends", "workflow.failed") >= 2);
        // retried again, and it completes
        report(run, workflowId, 4, WorkflowRunStatus.RUNNING, 1);
        report(run, workflowId, 5, WorkflowRunStatus.COMPLETED, 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.count("ends", "workflow.completed") >= 1);

        Thread.sleep(1500); // a second delivery of any end would have come by now
        assertThat(receiver.receivedBy("ends")).extracting(WebhookReceiver.Received::type)
                .containsExactlyInAnyOrder("workflow.failed", "workflow.failed", "workflow.completed");
        assertThat(Workflows.run(run.toString()).getString("status")).isEqualTo("COMPLETED");
    }

    @Test
    void aRunsEventsAreForAWorkflowsSubscriptionOnly() {
        String body = "{\"jobType\":\"SIMULATION\",\"events\":[\"COMPLETED\",\"workflow.completed\"],"
                + "\"url\":\"" + receiver.url("x") + "\"}";
        Answers.assertRefused("a type's subscription", Subscriptions.create(body), 400,
                "API.INVALID_SUBSCRIPTION_REQUEST", "'workflow.completed' is the end of a workflow run");
        Answers.assertRefused("an unknown run event", Subscriptions.create("{\"workflowId\":\"" + UUID.randomUUID()
                + "\",\"events\":[\"workflow.started\"],\"url\":\"" + receiver.url("x") + "\"}"), 400,
                "API.INVALID_SUBSCRIPTION_REQUEST", "'workflow.started' is not a known event");
        JsonPath shown = Answers.expect(Subscriptions.create("{\"workflowId\":\"" + UUID.randomUUID()
                + "\",\"events\":[\"workflow.cancelled\",\"FAILED\"],\"url\":\"" + receiver.url("x") + "\"}"), 201, "");
        assertThat(shown.getList("events")).containsExactly("workflow.cancelled", "FAILED");
    }
}
