package dev.jobweaver.scheduler.testing;

import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the workflow tests: {@link KafkaAndDbTest}'s clients and {@link TestWorkflows}, the API's stand-in, opened
 * before each test and closed after it; outcomes are published as a worker does.
 */
public abstract class WorkflowKafkaTest extends KafkaAndDbTest {

    protected TestWorkflows workflows;

    @BeforeEach
    void startWorkflows() {
        workflows = new TestWorkflows(bootstrapServers, producer, mapper);
    }

    @AfterEach
    void stopWorkflows() throws InterruptedException {
        workflows.close();
    }

    /** The job of {@code nodeId} in run {@code runId}. */
    protected static UUID job(UUID runId, String nodeId) {
        return JobIds.forNode(runId, nodeId);
    }

    /** Waits until the node's job runs its first attempt, then reports its success with {@code result}. */
    protected void complete(UUID runId, String nodeId) {
        UUID jobId = job(runId, nodeId);
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        producer.sendJson(Topics.JOB_COMPLETED, jobId, TestJobs.completed(jobId, 1, workflows.result(nodeId)));
    }

    /** Waits until the node's job runs its first attempt, then reports its failure (no retry left). */
    protected void fail(UUID runId, String nodeId) {
        UUID jobId = job(runId, nodeId);
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        producer.sendJson(Topics.JOB_FAILED, jobId, TestJobs.failed(jobId, 1, "boom " + nodeId));
    }
}
