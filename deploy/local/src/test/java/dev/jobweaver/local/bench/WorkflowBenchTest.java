package dev.jobweaver.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.common.job.JobIds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The workflow workload's options, its probe against a stub API (a platform without workflows makes it unavailable,
 * saying so), and how it reads a run.
 */
class WorkflowBenchTest {

    private HttpServer server;
    private ApiClient client;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    /** How the stub answers {@code /api/workflows}. */
    private interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private WorkloadRunner runner(Handler workflows) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/api/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath() + " " + body);
            workflows.handle(exchange);
        });
        server.start();
        client = new ApiClient("http://127.0.0.1:" + server.getAddress().getPort());
        BenchOptions options = BenchOptions.parse(List.of("workflow"), Path.of("/r"));
        return new WorkloadRunner(options, client, null, null, Fixtures.platform(), () -> ReplicaShare.Snapshot.NONE,
                new PrintStream(console, true), false);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.stop(0);
        }
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
        WorkloadRunner runner = runner(exchange -> answer(exchange, 404, "Not Found"));
        WorkloadResult result = runner.run(new BenchOptions.Run(Workload.WORKFLOW, 64, "workflow"));
        assertThat(result.available()).isFalse();
        assertThat(result.note()).isEqualTo("the API answers 404 to POST /api/workflows (Not Found); the platform "
                + "does not support workflows");
        assertThat(requests).singleElement().asString().startsWith("POST /api/workflows {\"name\":\"jobweaver-bench-"
                + "probe\",\"nodes\":[{\"id\":\"only\",\"job\":{");
        assertThat(console.toString()).contains("workflow: probing POST /api/workflows");
    }

    @Test
    void theProbePassesOnACreatedWorkflowAndDeletesIt() throws IOException {
        WorkloadRunner runner = runner(exchange -> {
            if (exchange.getRequestMethod().equals("POST")) {
                answer(exchange, 201, "{\"id\":\"wf-1\",\"version\":1}");
            } else {
                answer(exchange, 204, "");
            }
        });
        assertThat(runner.workflows().probe("workflow")).isNull();
        assertThat(requests).hasSize(2);
        assertThat(requests.get(1)).isEqualTo("DELETE /api/workflows/wf-1 ");
    }

    @Test
    void aRefusedOrIdlessProbeSaysWhat() throws IOException {
        WorkloadRunner runner = runner(exchange -> answer(exchange, 400, "{\"error\":\"nodes: too many\"}"));
        assertThat(runner.workflows().probe("workflow"))
                .isEqualTo("the probe workflow was answered 400 {\"error\":\"nodes: too many\"}, not 201");
        stop();
        WorkloadRunner idless = runner(exchange -> answer(exchange, 201, "{\"version\":1}"));
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
}
