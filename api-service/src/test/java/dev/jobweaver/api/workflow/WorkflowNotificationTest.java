package dev.jobweaver.api.workflow;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.WebhookReceiver;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A subscription to a workflow gets the state changes of its runs' node jobs, and of no other job. */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class WorkflowNotificationTest extends DeliveryTestSupport {

    @Test
    void aWorkflowsSubscriptionGetsItsNodeJobsChanges() throws Exception {
        String workflowId = Workflows.createOne();
        String subscription = Subscriptions.subscribe(receiver, "wf", "workflowId", workflowId, "COMPLETED");
        UUID runId = UUID.fromString(Workflows.start(workflowId, "{}").getString("runId"));
        UUID jobId = JobIds.forNode(runId, "extract");
        KafkaProbe.sendAll(List.of(Workflows.progress(mapper, Workflows.progressEvent(runId, workflowId, 1,
                WorkflowRunStatus.RUNNING, Map.of("extract", NodeStatus.PENDING),
                List.of(Workflows.ready(runId, "extract", Map.of()))))));
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/api/jobs/" + jobId).statusCode() == 200);
        String other = Jobs.submitOne();

        StatusEvents.send(mapper, other, JobStatus.COMPLETED, 2, 1, null);
        StatusEvents.send(mapper, jobId.toString(), JobStatus.COMPLETED, 2, 1, null);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.count("wf", "job.completed") >= 1);

        WebhookReceiver.Received delivery = receiver.receivedBy("wf").getFirst();
        assertThat(delivery.verified()).as(delivery.problem()).isTrue();
        JsonNode body = mapper.readTree(delivery.body());
        assertThat(body.get("jobId").asText()).isEqualTo(jobId.toString());
        assertThat(body.get("workflowId").asText()).isEqualTo(workflowId);
        assertThat(body.get("workflowRunId").asText()).isEqualTo(runId.toString());
        assertThat(body.get("nodeId").asText()).isEqualTo("extract");
        assertThat(body.get("subscriptionId").asText()).isEqualTo(subscription);
        Thread.sleep(1000); // the other job's change, consumed before this one's, must not have been delivered
        assertThat(receiver.receivedBy("wf")).as("only the workflow's job").hasSize(1);
    }
}
