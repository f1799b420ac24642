package dev.jobweaver.api.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.RepublishRound;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The runs the republisher finds ({@link WorkflowRunRepository#toRepublish}): an ask younger than one round is left to
 * the publish after its commit; an older one Kafka has not acknowledged is due.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class WorkflowRunRepositoryTest {

    /** A cancel asked (change 2): whatever Kafka acknowledged of the start, the cancel is not. */
    private static final String CANCEL_ASKED =
            "UPDATE workflow_runs SET change_version = 2, cancel_requested = true, updated_at = ? WHERE id = ?";

    @Inject WorkflowRunRepository runs;
    @Inject WorkflowConfig config;

    @Test
    void anAskKafkaDidNotAcknowledgeIsDueOnlyOnceOlderThanOneRound() throws Exception {
        try (RepublishRound round = RepublishRound.of(config.republishInterval())) {
            String workflowId = Workflows.createOne();
            UUID young = cancelAsked(round, workflowId, round.justChanged());
            UUID old = cancelAsked(round, workflowId, round.changedTwoRoundsBefore());

            List<WorkflowRun> rows = RepublishRound.inSession(() -> runs.toRepublish(round.settledBefore(), 10_000));

            assertThat(rows.stream().map(row -> row.id).toList()).contains(old).doesNotContain(young);
        }
    }

    /** A run of the workflow whose cancel was asked at {@code changedAt}. */
    private static UUID cancelAsked(RepublishRound round, String workflowId, Instant changedAt) throws Exception {
        UUID runId = UUID.fromString(Workflows.start(workflowId, "{}").getString("runId"));
        round.removeOnClose("DELETE FROM workflow_runs WHERE id = ?", runId);
        round.stamp(CANCEL_ASKED, changedAt, runId);
        return runId;
    }
}
