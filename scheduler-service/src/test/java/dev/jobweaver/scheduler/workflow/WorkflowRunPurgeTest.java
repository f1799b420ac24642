package dev.jobweaver.scheduler.workflow;

import static dev.jobweaver.scheduler.testing.TestWorkflows.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A PURGE of a finished run deletes it with its nodes; one of a run that has not finished changes nothing. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WorkflowRunPurgeTest extends WorkflowKafkaTest {

    @Inject
    Pool pool;

    @Test
    void aFinishedRunIsDeletedWithItsNodesAndARunningOneStays() {
        UUID finished = workflows.start(OnFailure.FAIL_FAST, List.of(node("a")));
        workflows.awaitVersion(finished, 1);
        complete(finished, "a");
        workflows.await(finished, e -> e.status() == WorkflowRunStatus.COMPLETED);
        await().atMost(Duration.ofSeconds(10)).until(() -> "COMPLETED".equals(status(finished)));
        UUID running = workflows.start(OnFailure.FAIL_FAST, List.of(node("a"), node("b", "a")));
        workflows.awaitVersion(running, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> "RUNNING".equals(status(running)));

        producer.sendJson(Topics.WORKFLOW_RUNS, running, WorkflowRunEvent.purge(running, Instant.now()));
        producer.sendJson(Topics.WORKFLOW_RUNS, finished, WorkflowRunEvent.purge(finished, Instant.now()));

        await().atMost(Duration.ofSeconds(20)).until(() -> status(finished) == null);
        assertThat(count("SELECT count(*) FROM workflow_run_nodes WHERE run_id = $1", finished)).isZero();
        // one partition per key, but two keys: wait for a record behind the running run's purge on its partition
        workflows.cancel(running);
        await().atMost(Duration.ofSeconds(20)).until(() -> "CANCELLED".equals(status(running)));
        assertThat(count("SELECT count(*) FROM workflow_run_nodes WHERE run_id = $1", running)).isEqualTo(2);
    }

    private String status(UUID runId) {
        var rows = pool.preparedQuery("SELECT status FROM workflow_runs WHERE run_id = $1").execute(Tuple.of(runId))
                .await().atMost(Duration.ofSeconds(10)).iterator();
        return rows.hasNext() ? rows.next().getString("status") : null;
    }

    private long count(String sql, UUID runId) {
        return pool.preparedQuery(sql).execute(Tuple.of(runId)).await().atMost(Duration.ofSeconds(10)).iterator().next()
                .getLong(0);
    }
}
