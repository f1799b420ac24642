package dev.jobweaver.scheduler.workflow;

import static dev.jobweaver.scheduler.testing.PoisonRecords.reason;
import static dev.jobweaver.scheduler.testing.TestWorkflows.node;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic.Position;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
        long notJson = producer.sendRaw(Topics.WORKFLOW_RUNS, 1, bad.toString(),
                "{not json".getBytes(StandardCharsets.UTF_8));
        long invalid = producer.sendRaw(Topics.WORKFLOW_RUNS, 1, bad.toString(), jsonBytes(cycle));
        long otherKey = producer.sendRaw(Topics.WORKFLOW_RUNS, 1, UUID.randomUUID().toString(), jsonBytes(wrongKey));
        workflows.makeJobs(false);
        WorkflowRunEvent start = WorkflowRunEvent.start(good, UUID.randomUUID(), 1, "default", OnFailure.FAIL_FAST,
                null, List.of(node("a")), null, null, Instant.now());
        workflows.track(good);
        producer.sendRaw(Topics.WORKFLOW_RUNS, 1, good.toString(), jsonBytes(start));

        assertThat(workflows.awaitVersion(good, 1).status()).isEqualTo(WorkflowRunStatus.RUNNING);
        Map<Position, ConsumerRecord<String, byte[]>> copies = PoisonRecords.awaitQuarantined(bootstrapServers,
                List.of(at(notJson), at(invalid), at(otherKey)));
        assertThat(reason(copies.get(at(notJson)))).isEqualTo(QuarantineReason.UNREADABLE.name());
        assertThat(reason(copies.get(at(invalid)))).isEqualTo(QuarantineReason.INVALID.name());
        assertThat(QuarantineTopic.header(copies.get(at(invalid)), QuarantineHeaders.DETAIL)).contains("cycle");
        assertThat(QuarantineTopic.header(copies.get(at(otherKey)), QuarantineHeaders.DETAIL)).contains("runId");
        workflows.track(bad);
        assertThat(workflows.events(bad)).isEmpty();
    }

    private static Position at(long offset) {
        return new Position(Topics.WORKFLOW_RUNS, 1, offset);
    }
}
