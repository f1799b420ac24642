package dev.jobweaver.scheduler.workflow;

import static dev.jobweaver.scheduler.testing.TestWorkflows.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.PoisonRecords.BadRecords;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Records of {@code workflow-runs} that are no usable start or cancel (not JSON, a graph with a cycle, keyed by
 * another id) are quarantined, and the good START behind them on the same partition is applied.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WorkflowRunConsumerQuarantineTest extends WorkflowKafkaTest {

    @Test
    void badRecordsAreQuarantinedAndTheGoodStartBehindThemIsApplied() {
        UUID bad = UUID.randomUUID();
        UUID good = UUID.randomUUID();
        WorkflowRunEvent cycle = WorkflowRunEvent.start(bad, UUID.randomUUID(), 1, "default", OnFailure.FAIL_FAST,
                null, List.of(node("a", "b"), node("b", "a")), null, null, Instant.now());
        WorkflowRunEvent wrongKey = WorkflowRunEvent.start(bad, UUID.randomUUID(), 1, "default",
                OnFailure.FAIL_FAST, null, List.of(node("a")), null, null, Instant.now());
        BadRecords sent = BadRecords.produce(producer, Topics.WORKFLOW_RUNS, bad, jsonBytes(cycle),
                jsonBytes(wrongKey));
        workflows.makeJobs(false);
        WorkflowRunEvent start = WorkflowRunEvent.start(good, UUID.randomUUID(), 1, "default", OnFailure.FAIL_FAST,
                null, List.of(node("a")), null, null, Instant.now());
        workflows.track(good);
        producer.sendRaw(Topics.WORKFLOW_RUNS, 1, good.toString(), jsonBytes(start));

        assertThat(workflows.awaitVersion(good, 1).status()).isEqualTo(WorkflowRunStatus.RUNNING);
        sent.assertQuarantined(bootstrapServers, "cycle", "runId");
        workflows.track(bad);
        assertThat(workflows.events(bad)).isEmpty();
    }
}
