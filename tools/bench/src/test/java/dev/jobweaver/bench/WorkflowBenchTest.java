package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import dev.jobweaver.common.job.JobIds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The workflow workload's options, its probe against a stub API (a platform without workflows makes it unavailable,
 * saying so), and how it reads a run.
 */
class WorkflowBenchTest {

    @AutoClose
    private StubApi api;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    /** How the stub answers {@code /api/workflows}. */
    private interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private WorkloadRunner runner(Handler workflows) throws IOException {
        api = StubApi.serving("/api/", (exchange, body) -> workflows.handle(exchange));
        return api.runner(List.of("workflow"), console);
    }

    @Test
    void theWorkflowWorkloadRunsOnlyWhenNamedAtTheMainConcurrency() {
        assertThat(BenchOptions.parse(List.of(), Path.of("/r")).workloads()).doesNotContain(Workload.WORKFLOW);
        assertThat(BenchOptions.parse(List.of("workflow", "burst", "--concurrency", "16,64,256"), Path.of("/r"))
                .runs()).containsExactly(
                new BenchOptions.Run(Workload.BURST, 16, "burst c=16"),
                new BenchOptions.Run(Workload.BURST, 64, "burst c=64"),
                new BenchOptions.Run(Workload.BURST, 256, "burst c=256"),
                new BenchOptions.Run(Workload.WORKFLOW, 64, "workflow"));
    }

    @Test
    void itsOptionsDefaultToTwentyFanOutsAndTwoThousandDiamondsAndAreBounded() {
        BenchOptions defaults = BenchOptions.parse(List.of("workflow"), Path.of("/r"));
        assertThat(defaults.workflowRuns()).isEqualTo(BenchOptions.WORKFLOW_RUNS).isEqualTo(20);
        assertThat(defaults.diamondRuns()).isEqualTo(BenchOptions.DIAMOND_RUNS).isEqualTo(2_000);
        BenchOptions o = BenchOptions.parse(List.of("workflow", "--workflow-runs", "5", "--diamond-runs=1e4"),
                Path.of("/r"));
        assertThat(o.workflowRuns()).isEqualTo(5);
        assertThat(o.diamondRuns()).isEqualTo(10_000);
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--workflow-runs", "0"), Path.of("/r")))
                .hasMessage("Invalid value for option '--workflow-runs': '0' is not a positive number");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--diamond-runs", "2.5"), Path.of("/r")))
                .hasMessage("Invalid value for option '--diamond-runs': '2.5' is not a whole number");
    }

    @Test
    void theWorkloadIsUnavailableWhenTheApiHasNoWorkflows() throws IOException {
        WorkloadRunner runner = runner(exchange -> StubApi.answer(exchange, 404, "Not Found"));
        StubApi.assertUnavailable(runner.run(new BenchOptions.Run(Workload.WORKFLOW, 64, "workflow")))
                .isEqualTo("the API answers 404 to POST /api/workflows (Not Found); the platform does not support "
                        + "workflows");
        assertThat(api.requests).singleElement().asString().startsWith("POST /api/workflows {\"name\":"
                + "\"jobweaver-bench-probe\",\"nodes\":[{\"id\":\"only\",\"job\":{");
        assertThat(console.toString()).contains("workflow: probing POST /api/workflows");
    }

    @Test
    void theProbePassesOnACreatedWorkflowAndDeletesIt() throws IOException {
        WorkloadRunner runner = runner(exchange -> {
            if (exchange.getRequestMethod().equals("POST")) {
                StubApi.answer(exchange, 201, "{\"id\":\"wf-1\",\"version\":1}");
            } else {
                StubApi.answer(exchange, 204, "");
            }
        });
        assertThat(runner.workflows().probe("workflow")).isNull();
        assertThat(api.requests).hasSize(2);
        assertThat(api.requests.get(1)).isEqualTo("DELETE /api/workflows/wf-1 ");
    }

    @Test
    void aRefusedOrIdlessProbeSaysWhat() throws IOException {
        WorkloadRunner runner = runner(exchange -> StubApi.answer(exchange, 400, "{\"error\":\"nodes: too many\"}"));
        assertThat(runner.workflows().probe("workflow"))
                .isEqualTo("the probe workflow was answered 400 {\"error\":\"nodes: too many\"}, not 201");
        api.close();
        WorkloadRunner idless = runner(exchange -> StubApi.answer(exchange, 201, "{\"version\":1}"));
        assertThat(idless.workflows().probe("workflow")).isEqualTo("the probe workflow's 201 has no id: "
                + "{\"version\":1}");
    }

    @Test
    void aRunIsReadWithItsNodesAndTheirJobs() {
        UUID job = UUID.randomUUID();
        WorkflowBench.RunState state = WorkflowBench.parseRun("{\"runId\":\"r\",\"workflowId\":\"w\",\"version\":1,"
                + "\"status\":\"RUNNING\",\"nodes\":[{\"id\":\"a\",\"status\":\"COMPLETED\",\"jobId\":\"" + job
                + "\"},{\"id\":\"b\",\"status\":\"WAITING\",\"jobId\":null}],"
                + "\"createdAt\":\"2026-01-01T00:00:00.123Z\",\"finishedAt\":null}");
        assertThat(state.status()).isEqualTo("RUNNING");
        assertThat(state.ended()).isFalse();
        assertThat(state.endedNodes()).isEqualTo(1);
        assertThat(state.createdAt()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123Z"));
        assertThat(state.finishedAt()).isNull();
        assertThat(state.nodes()).containsExactly(Map.entry("a", new WorkflowBench.NodeState("COMPLETED", job)),
                Map.entry("b", new WorkflowBench.NodeState("WAITING", null)));
        assertThat(WorkflowBench.parseRun("{\"status\":\"COMPLETED\"}").ended()).isTrue();
        assertThat(WorkflowBench.parseRun("not json")).isNull();
        assertThat(WorkflowBench.parseRun("{\"error\":\"x\"}")).isNull();
    }

    @Test
    void aNodeTheRunDoesNotNameIsLookedUpByTheIdItsJobMustHave() {
        UUID runId = UUID.randomUUID();
        UUID a = UUID.randomUUID();
        WorkflowBench.RunState state = new WorkflowBench.RunState("COMPLETED", null, null,
                Map.of("a", new WorkflowBench.NodeState("COMPLETED", a)));
        Map<String, UUID> ids = WorkflowBench.jobIds(new WorkflowBench.Observed(WorkflowRuns.Shape.DIAMOND, runId,
                null, null, 1.0, state));
        assertThat(ids.keySet()).containsExactly("a", "b", "c", "d", "e");
        assertThat(ids.get("a")).isEqualTo(a);
        assertThat(ids.get("e")).isEqualTo(JobIds.forNode(runId, "e"));
    }

    /**
     * A platform with workflows in a stub: every run COMPLETED 30 ms after its request, its nodes' jobs as the test
     * made them, the fan-out's nodes named with their job ids and the diamond's not (so their ids are derived).
     */
    private static final class StubPlatform implements WorkflowBench.NodeJobs {

        final Map<String, List<String>> nodesByWorkflow = new java.util.concurrent.ConcurrentHashMap<>();
        final Map<UUID, String> workflowOfRun = new java.util.concurrent.ConcurrentHashMap<>();
        final Map<UUID, Instant> createdAt = new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger mostInFlight = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();

        void handle(HttpExchange exchange, String body) throws IOException {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            if (method.equals("POST") && path.equals("/api/workflows")) {
                String id = "wf-" + created.incrementAndGet();
                List<String> ids = new java.util.ArrayList<>();
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(body).path("nodes")
                        .forEach(n -> ids.add(n.path("id").asText()));
                nodesByWorkflow.put(id, ids);
                StubApi.answer(exchange, 201, "{\"id\":\"" + id + "\",\"version\":1}");
            } else if (method.equals("DELETE")) {
                StubApi.answer(exchange, 204, "");
            } else if (method.equals("POST") && path.endsWith("/runs")) {
                mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                UUID runId = UUID.randomUUID();
                workflowOfRun.put(runId, path.split("/")[3]);
                createdAt.put(runId, Instant.now());
                inFlight.decrementAndGet();
                StubApi.answer(exchange, 202, "{\"runId\":\"" + runId + "\",\"traceId\":\"t\"}");
            } else if (method.equals("GET") && path.startsWith("/api/workflow-runs/")) {
                UUID runId = UUID.fromString(path.substring(path.lastIndexOf('/') + 1));
                List<String> ids = nodesByWorkflow.get(workflowOfRun.get(runId));
                StringBuilder nodes = new StringBuilder();
                if (ids.size() == WorkflowRuns.Shape.FAN_OUT.nodeIds().size()) {
                    for (String id : ids) {
                        nodes.append(nodes.isEmpty() ? "" : ",").append("{\"id\":\"").append(id)
                                .append("\",\"status\":\"COMPLETED\",\"jobId\":\"")
                                .append(JobIds.forNode(runId, id)).append("\"}");
                    }
                }
                Instant created = createdAt.get(runId);
                StubApi.answer(exchange, 200, "{\"runId\":\"" + runId + "\",\"status\":\"COMPLETED\",\"nodes\":[" + nodes
                        + "],\"createdAt\":\"" + created + "\",\"finishedAt\":\"" + created.plusMillis(30) + "\"}");
            } else {
                StubApi.answer(exchange, 404, "");
            }
        }

        /** Each node's job ran once: the join 7 ms after the last branch finished, every other node 1 ms long. */
        @Override
        public List<JobRecord> records(List<Accepted> jobs) {
            Map<UUID, String> nodeOfJob = new java.util.HashMap<>();
            workflowOfRun.forEach((run, workflow) -> nodesByWorkflow.get(workflow)
                    .forEach(node -> nodeOfJob.put(JobIds.forNode(run, node), node)));
            return jobs.stream().map(a -> {
                String node = nodeOfJob.get(a.jobId());
                Instant start = a.submittedAt().plusMillis(node.equals("join") ? 17 : 2);
                Instant finish = node.equals("join") || node.equals("e") ? start.plusMillis(1)
                        : a.submittedAt().plusMillis(10);
                return new JobRecord(a.jobId(), a.kind(), a.submittedAt(), a.acceptMs(), a.submittedAt(), null, null,
                        start, finish, finish, null, "COMPLETED", 1, 1);
            }).toList();
        }

        @Override
        public String workerProblem() {
            return null;
        }
    }

    @Test
    void theWholeWorkloadAgainstAStubPlatform() throws IOException {
        StubPlatform platform = new StubPlatform();
        api = StubApi.serving("/api/", 16, platform::handle);
        BenchOptions options = BenchOptions.parse(List.of("workflow", "--workflow-runs", "3", "--diamond-runs", "40",
                "--concurrency", "8"), Path.of("/r"));
        WorkloadResult result = new WorkflowBench(options, api.client(), platform, new PrintStream(console, true),
                false)
                .run(new BenchOptions.Run(Workload.WORKFLOW, 8, "workflow"));

        assertThat(result.available()).as(result.note()).isTrue();
        assertThat(result.correctness().summary()).isEqualTo("43/43 as expected, 0 lost, 0 duplicated, 0 unexpected");
        WorkflowRuns w = result.workflows();
        assertThat(w.fanOut().completed()).isEqualTo(3);
        assertThat(w.fanOut().lastBranchToJoin().max()).isEqualTo(7);
        assertThat(w.fanOut().lastBranchToJoin().count()).isEqualTo(3);
        assertThat(w.nodeJobsOnce(WorkflowRuns.Shape.FAN_OUT)).isEqualTo(300);
        assertThat(w.diamond().completed()).isEqualTo(40);
        assertThat(w.nodeJobsOnce(WorkflowRuns.Shape.DIAMOND)).as("ids derived, the run named none").isEqualTo(200);
        assertThat(w.diamond().runsPerSecond()).isPositive();
        assertThat(w.diamond().createdToEnd().max()).isEqualTo(30);
        assertThat(platform.mostInFlight.get()).isBetween(2, 8);
        assertThat(w.deleted()).isEqualTo(2);
        // the probe's workflow, then the two the workload made, each deleted
        assertThat(api.requests).contains("DELETE /api/workflows/wf-1 ", "DELETE /api/workflows/wf-2 ",
                "DELETE /api/workflows/wf-3 ");
        assertThat(api.requests.stream().filter(r -> r.startsWith("POST /api/workflows/wf-2/runs"))).hasSize(3);
        assertThat(api.requests.stream().filter(r -> r.startsWith("POST /api/workflows/wf-3/runs"))).hasSize(40);
        assertThat(result.note()).startsWith("fan-out: start, 98 no-op branches, join (100 nodes), 3 runs one after "
                + "another; diamond: a -> b, c, d -> e, 40 runs, 8 requests in flight");
    }

    @Test
    void aRunThatCannotBeReadStopsTheFanOutAfterTheTimeoutAndCountsAsLost() throws IOException {
        StubPlatform platform = new StubPlatform();
        api = StubApi.serving("/api/", (exchange, body) -> {
            if (exchange.getRequestMethod().equals("GET")) {
                StubApi.answer(exchange, 404, "");
            } else {
                platform.handle(exchange, body);
            }
        });
        BenchOptions options = BenchOptions.parse(List.of("workflow", "--workflow-runs", "3", "--diamond-runs", "2",
                "--concurrency", "2", "--timeout", "300ms"), Path.of("/r"));
        WorkloadResult result = new WorkflowBench(options, api.client(), platform, new PrintStream(console, true),
                false)
                .run(new BenchOptions.Run(Workload.WORKFLOW, 2, "workflow"));

        assertThat(result.workflows().fanOut().runs()).isEqualTo(1);
        assertThat(result.workflows().fanOut().notAccepted()).isZero();
        assertThat(result.correctness().summary()).isEqualTo("0/3 as expected, 3 lost, 0 duplicated, 0 unexpected");
        assertThat(result.note()).contains(" could not be read (GET /api/workflow-runs/",
                "the other 2 fan-out runs were not started", "2 diamond runs had not ended after 0 s");
        assertThat(api.requests).contains("DELETE /api/workflows/wf-2 ", "DELETE /api/workflows/wf-3 ");
    }
}
