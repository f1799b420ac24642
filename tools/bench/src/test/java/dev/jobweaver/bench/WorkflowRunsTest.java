package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.workflow.WorkflowGraph;
import dev.jobweaver.common.workflow.WorkflowNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The workflow workload's bodies, its figures from given timings, and its verdict on each run. */
class WorkflowRunsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The nodes of a workflow body, as the platform's graph rules read them. */
    private static List<WorkflowNode> nodes(String body) throws Exception {
        List<WorkflowNode> nodes = new ArrayList<>();
        for (JsonNode n : JSON.readTree(body).path("nodes")) {
            List<String> deps = new ArrayList<>();
            n.path("dependsOn").forEach(d -> deps.add(d.asText()));
            nodes.add(new WorkflowNode(n.path("id").asText(), deps));
        }
        return nodes;
    }

    /**
     * A fan-out run sent at {@code t}, answered 202 at t + 10 and created at t + 5; branch i starts at t + 20 + i and
     * finishes 10 ms later; the join starts {@code fanIn} ms after the last branch's finish.
     */
    static WorkflowRuns.Run fanOut(long t, long fanIn) {
        List<WorkflowRuns.Node> nodes = new ArrayList<>();
        List<String> ids = WorkflowRuns.Shape.FAN_OUT.nodeIds();
        nodes.add(new WorkflowRuns.Node(ids.getFirst(), "COMPLETED", Fixtures.completed(JobKind.NOOP, t, t + 12,
                t + 15)));
        long lastFinish = 0;
        for (int i = 1; i < ids.size() - 1; i++) {
            lastFinish = t + 30 + i;
            nodes.add(new WorkflowRuns.Node(ids.get(i), "COMPLETED", Fixtures.completed(JobKind.NOOP, t, t + 20 + i,
                    lastFinish)));
        }
        nodes.add(new WorkflowRuns.Node(ids.getLast(), "COMPLETED", Fixtures.completed(JobKind.NOOP, t,
                lastFinish + fanIn, lastFinish + fanIn + 5)));
        return new WorkflowRuns.Run(WorkflowRuns.Shape.FAN_OUT, UUID.randomUUID(), at(t), at(t + 10), 10.0,
                "COMPLETED", at(t + 5), at(lastFinish + fanIn + 6), nodes);
    }

    /** A diamond run sent at {@code t}, created at t + 2, answered at t + 4, finished at t + {@code lasting}. */
    static WorkflowRuns.Run diamond(long t, long lasting, String status, JobRecord e) {
        List<WorkflowRuns.Node> nodes = new ArrayList<>();
        for (String id : List.of("a", "b", "c", "d")) {
            nodes.add(new WorkflowRuns.Node(id, "COMPLETED", Fixtures.completed(JobKind.NOOP, t, t + 5, t + 6)));
        }
        nodes.add(new WorkflowRuns.Node("e", e == null ? null : "COMPLETED", e));
        return new WorkflowRuns.Run(WorkflowRuns.Shape.DIAMOND, UUID.randomUUID(), at(t), at(t + 4), 4.0, status,
                at(t + 2), status == null || status.equals("RUNNING") ? null : at(t + lasting), nodes);
    }

    static WorkflowRuns.Run diamond(long t, long lasting) {
        return diamond(t, lasting, "COMPLETED", Fixtures.completed(JobKind.NOOP, t, t + 7, t + lasting - 1));
    }

    @Test
    void theFanOutHasTheMostNodesAWorkflowMayHaveAndObeysTheGraphRules() throws Exception {
        List<WorkflowNode> nodes = nodes(WorkflowRuns.Shape.FAN_OUT.body("jobweaver-bench-x-fan-out"));
        assertThat(nodes).hasSize(100).hasSize(WorkflowGraph.MAX_NODES);
        assertThat(WorkflowGraph.problems(nodes, 10)).isEmpty();
        assertThat(nodes.getFirst()).isEqualTo(new WorkflowNode("start", List.of()));
        assertThat(nodes.get(1)).isEqualTo(new WorkflowNode("b01", List.of("start")));
        assertThat(nodes.get(98)).isEqualTo(new WorkflowNode("b98", List.of("start")));
        assertThat(nodes.getLast().id()).isEqualTo("join");
        assertThat(nodes.getLast().dependsOn()).hasSize(98).containsExactlyElementsOf(
                WorkflowRuns.Shape.FAN_OUT.nodeIds().subList(1, 99));
        JsonNode body = JSON.readTree(WorkflowRuns.Shape.FAN_OUT.body("jobweaver-bench-x-fan-out"));
        assertThat(body.path("name").asText()).isEqualTo("jobweaver-bench-x-fan-out");
        assertThat(body.path("onFailure").asText()).isEqualTo("FAIL_FAST");
        assertThat(body.has("maxConcurrency")).as("a workflow's limit holds over all its runs").isFalse();
        assertThat(body.at("/nodes/0/job")).isEqualTo(JSON.readTree(JobKind.NOOP.body()));
        assertThat(body.at("/nodes/0").has("dependsOn")).isFalse();
    }

    @Test
    void aFanOutBeyondOneHundredNodesIsRefusedBeforeTheApiWould() throws Exception {
        assertThat(nodes(WorkflowRuns.fanOutBody("x", 98))).hasSize(100);
        assertThatThrownBy(() -> WorkflowRuns.fanOutBody("x", 99)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a fan-out of 99 branches has 101 nodes; a workflow may have at most 100");
    }

    @Test
    void theDiamondIsFiveNodes() throws Exception {
        List<WorkflowNode> nodes = nodes(WorkflowRuns.Shape.DIAMOND.body("d"));
        assertThat(nodes).containsExactly(new WorkflowNode("a", List.of()), new WorkflowNode("b", List.of("a")),
                new WorkflowNode("c", List.of("a")), new WorkflowNode("d", List.of("a")),
                new WorkflowNode("e", List.of("b", "c", "d")));
        assertThat(WorkflowGraph.problems(nodes, 10)).isEmpty();
    }

    @Test
    void theFanOutFiguresRunFromTheRunsStartToTheJoinsStart() {
        // join 13, 23, ..., 103 ms after the last branch (which finishes at t + 128)
        List<WorkflowRuns.Run> runs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            runs.add(fanOut(i * 1_000L, 13 + 10 * i));
        }
        WorkflowRuns w = WorkflowRuns.of(runs, 11, 0, 64, 2);
        WorkflowRuns.FanOut f = w.fanOut();
        assertThat(f.runs()).isEqualTo(11);
        assertThat(f.notAccepted()).isEqualTo(1);
        assertThat(f.completed()).isEqualTo(10);
        assertThat(f.lastBranchToJoin().count()).isEqualTo(10);
        assertThat(f.lastBranchToJoin().p50()).isCloseTo(53, within(0.1));
        assertThat(f.lastBranchToJoin().p99()).isEqualTo(103);
        assertThat(f.lastBranchToJoin().max()).isEqualTo(103);
        // accepted at t + 10, last branch finished at t + 128
        assertThat(f.acceptedToJoin().max()).isEqualTo(128 - 10 + 103);
        assertThat(f.acceptedToJoin().p50()).isCloseTo(128 - 10 + 53, within(0.2));
        // created at t + 5
        assertThat(f.createdToJoin().max()).isEqualTo(128 - 5 + 103);
        // the last branch (b98) starts at t + 118
        assertThat(f.createdToLastBranchStart().max()).isEqualTo(118 - 5);
        assertThat(f.answer().p50()).isEqualTo(10);
        assertThat(w.deleted()).isEqualTo(2);
        assertThat(w.expectedNodeJobs(WorkflowRuns.Shape.FAN_OUT)).isEqualTo(1_000);
        assertThat(w.nodeJobsOnce(WorkflowRuns.Shape.FAN_OUT)).isEqualTo(1_000);
        assertThat(w.diamond().runsPerSecond()).isNaN();
        assertThat(w.correctness().ok()).isTrue();
    }

    @Test
    void aFanOutRunWithABranchThatNeverFinishedHasNoFanInFigure() {
        WorkflowRuns.Run run = fanOut(0, 13);
        List<WorkflowRuns.Node> nodes = new ArrayList<>(run.nodes());
        nodes.set(5, new WorkflowRuns.Node(nodes.get(5).id(), "RUNNING", Fixtures.ended(JobKind.NOOP, null, 0, 0)));
        WorkflowRuns.Run stuck = new WorkflowRuns.Run(run.shape(), run.runId(), run.sentAt(), run.acceptedAt(),
                run.answerMs(), "COMPLETED", run.createdAt(), run.finishedAt(), nodes);
        assertThat(stuck.lastBranchFinishedAt()).isNull();
        assertThat(WorkflowRuns.of(List.of(stuck), 1, 0, 64, 2).fanOut().lastBranchToJoin().count()).isZero();
    }

    @Test
    void theDiamondsRateRunsFromTheFirstRequestToTheLastRunsEnd() {
        // four runs sent 0, 10, 20, 30 ms in, each lasting 100, 200, 300, 400 ms: the last ends at 430 ms
        List<WorkflowRuns.Run> runs = List.of(diamond(0, 100), diamond(10, 200), diamond(20, 300), diamond(30, 400));
        WorkflowRuns.Diamond d = WorkflowRuns.of(runs, 0, 4, 64, 2).diamond();
        assertThat(d.runs()).isEqualTo(4);
        assertThat(d.completed()).isEqualTo(4);
        assertThat(d.concurrency()).isEqualTo(64);
        assertThat(d.runsPerSecond()).isCloseTo(4 / 0.43, within(1e-9));
        assertThat(d.jobsPerSecond()).isCloseTo(5 * 4 / 0.43, within(1e-9));
        assertThat(d.requestToEnd().p50()).isCloseTo(200, within(0.2));
        assertThat(d.requestToEnd().max()).isEqualTo(400);
        assertThat(d.createdToEnd().max()).isEqualTo(398);
        assertThat(d.answer().max()).isEqualTo(4);
    }

    @Test
    void aDiamondRunThatDidNotCompleteCountsInNoRateNorLatency() {
        List<WorkflowRuns.Run> runs = List.of(diamond(0, 100), diamond(10, 900, "FAILED", null));
        WorkflowRuns w = WorkflowRuns.of(runs, 0, 3, 16, 2);
        assertThat(w.diamond().notAccepted()).isEqualTo(1);
        assertThat(w.diamond().completed()).isEqualTo(1);
        assertThat(w.diamond().runsPerSecond()).isEqualTo(10);
        assertThat(w.diamond().requestToEnd().count()).isEqualTo(1);
        assertThat(w.expectedNodeJobs(WorkflowRuns.Shape.DIAMOND)).isEqualTo(10);
        assertThat(w.nodeJobsOnce(WorkflowRuns.Shape.DIAMOND)).isEqualTo(9);
    }

    @Test
    void everyRunIsJudgedOnceFromItsStatusAndItsNodesExecutions() {
        WorkflowRuns.Run ok = diamond(0, 100);
        WorkflowRuns.Run running = diamond(0, 100, "RUNNING", null);
        WorkflowRuns.Run twice = diamond(0, 100, "COMPLETED", Fixtures.ended(JobKind.NOOP, "COMPLETED", 1, 2));
        WorkflowRuns.Run failed = diamond(0, 100, "FAILED", Fixtures.ended(JobKind.NOOP, "FAILED", 1, 1));
        WorkflowRuns.Run noJob = diamond(0, 100, "COMPLETED", Fixtures.ended(JobKind.NOOP, null, 0, 0));
        WorkflowRuns.Run unreadable = diamond(0, 100, "COMPLETED", Fixtures.ended(JobKind.NOOP, "COMPLETED", 1, -1));
        Correctness c = WorkflowRuns.of(List.of(ok, running, twice, failed, noJob, unreadable), 0, 6, 64, 2)
                .correctness();
        assertThat(c.accepted()).isEqualTo(6);
        assertThat(c.asExpected()).as("ok, and the one whose executions could not be read").isEqualTo(2);
        assertThat(c.lost()).isEqualTo(1);
        assertThat(c.duplicated()).isEqualTo(1);
        assertThat(c.unexpected()).isEqualTo(2);
        assertThat(c.ok()).isFalse();
        assertThat(c.examples()).containsExactly(
                running.runId() + " (diamond run): still RUNNING",
                twice.runId() + " (diamond run): node e's job " + twice.node("e").job().jobId() + " executed 2 times",
                failed.runId() + " (diamond run): ended FAILED; node e: COMPLETED, job "
                        + failed.node("e").job().jobId() + " FAILED with attempts 1 and 1 execution rows",
                noJob.runId() + " (diamond run): COMPLETED, but node e: COMPLETED, no job in jobweaver_api.jobs");
        assertThat(WorkflowRuns.of(List.of(ok), 0, 1, 64, 2).correctness().summary())
                .isEqualTo("1/1 as expected, 0 lost, 0 duplicated, 0 unexpected");
    }

    @Test
    void theRawRunsFileHasOneLinePerRun() {
        WorkflowRuns.Run run = fanOut(0, 13);
        WorkflowRuns w = WorkflowRuns.of(List.of(run, diamond(0, 100)), 1, 1, 64, 2);
        List<String> lines = w.runsCsv().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.getFirst()).isEqualTo(WorkflowRuns.RUNS_HEADER);
        assertThat(lines.get(1)).isEqualTo(run.runId() + ",fan-out," + at(0) + "," + at(10) + ",10.000,COMPLETED,"
                + at(5) + "," + at(147) + "," + at(118) + "," + at(128) + "," + at(141) + ",100,100");
        assertThat(lines.get(2)).contains(",diamond,").endsWith(",5,5");
        assertThat(w.nodeJobs()).hasSize(105);
    }
}
