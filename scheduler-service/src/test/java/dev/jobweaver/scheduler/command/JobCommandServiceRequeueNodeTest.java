package dev.jobweaver.scheduler.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.testing.TestWorkflows;
import dev.jobweaver.scheduler.testing.WorkflowKafkaTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A workflow node's job is never requeued, even FAILED: its run has ended, and a node runs again in a new run. */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobCommandServiceRequeueNodeTest extends WorkflowKafkaTest {

    @Inject
    MeterRegistry registry;

    @Test
    void aFailedNodeJobIsNotRequeued() {
        UUID runId = workflows.start(OnFailure.FAIL_FAST, List.of(TestWorkflows.node("a")));
        fail(runId, "a");
        UUID jobId = job(runId, "a");
        JobExecution failed = db.awaitJob(jobId, j -> j.status() == JobStatus.FAILED);
        workflows.await(runId, e -> e.status() == WorkflowRunStatus.FAILED);
        int statusesBefore = recorder.await(Topics.JOB_STATUS, jobId, 2).size();
        long progressBefore = workflows.events(runId).size();
        double ignoredBefore = ignored();

        commandsApplied(TestJobs.requeue(jobId, null, 3));

        assertThat(db.get(jobId)).isEqualTo(failed);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(ignored()).isEqualTo(ignoredBefore + 1));
        settle();
        assertThat(statuses(jobId)).hasSize(statusesBefore);
        assertThat(recorder.records(Topics.RUN_JOB, jobId)).hasSize(1);
        assertThat(workflows.events(runId)).hasSize((int) progressBefore);
    }

    private double ignored() {
        Counter counter = registry.find("jobweaver.commands.ignored").tag("command", "requeue").counter();
        return counter == null ? 0 : counter.count();
    }
}
