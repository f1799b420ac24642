package dev.jobweaver.scheduler.workflow;

import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Runs in memory for the tests of a run's progress, every node WAITING with the job id the API would give it. */
final class TestRuns {

    private TestRuns() {
    }

    /** A RUNNING run {@code runId} created at {@code now}, of nodes written {@code id} or {@code id:dep,dep}. */
    static RunProgress run(UUID runId, Instant now, OnFailure onFailure, String... nodes) {
        List<RunNode> graph = new ArrayList<>();
        for (int i = 0; i < nodes.length; i++) {
            String[] parts = nodes[i].split(":");
            graph.add(new RunNode(parts[0], i, parts.length == 1 ? List.of() : List.of(parts[1].split(",")),
                    NodeStatus.WAITING, JobIds.forNode(runId, parts[0]), null));
        }
        return new RunProgress(new WorkflowRun(runId, UUID.randomUUID(), 1, "default", onFailure, null,
                WorkflowRunStatus.RUNNING, 0, null, null, now, null, null), graph);
    }
}
