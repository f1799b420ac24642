package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.NativeScenario;
import dev.jobweaver.e2e.support.TraceViewer;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.Zipkin;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Workflows on the packaged services: nodes run as soon as their dependencies complete, in parallel; a fan-in node
 * gets every dependency's result; {@code FAIL_FAST} and {@code CONTINUE}; a failed run retried, and a node's dead letter
 * requeued, each going on to its end under the same runId; cancelling a run; a run keeps its version;
 * one trace per run; a schedule starting runs one at a time under {@code overlap: SKIP}; and runs that finish, with
 * every node run once to completion, while the scheduler is killed again and again.
 */
@HealthyPlatform
class WorkflowIT {

    @Test
    @NativeScenario
    void aFanOutRunsInParallelAndTheFanInGetsTheInputAndEveryResult() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        List<String> branches = new ArrayList<>();
        StringBuilder nodes = new StringBuilder(node("start", Jobs.noop(), List.of()));
        for (int i = 0; i < 10; i++) {
            branches.add("b" + i);
            nodes.append(',').append(node("b" + i, Jobs.sleeping(1_000), List.of("start")));
        }
        nodes.append(',').append(node("join", Jobs.noop(), branches));
        UUID workflow = create(api, "{\"name\":\"fan\",\"nodes\":[" + nodes + "]}");

        Run run = start(api, workflow, "{\"input\":{\"day\":\"2026-11-26\"}}");
        JsonNode done = awaitEnded(api, run.id(), Duration.ofSeconds(90));

        assertThat(done.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.path("version").asInt()).isEqualTo(1);
        Map<String, UUID> jobs = nodeJobs(done);
        assertThat(jobs.keySet()).containsExactlyInAnyOrderElementsOf(concat(List.of("start", "join"), branches));
        assertThat(statuses(done).values()).containsOnly("COMPLETED");
        // The run's end and each job's status and result reach the API through different consumers: wait for both.
        Map<UUID, JsonNode> ended = api.awaitAll(jobs.values(), JobWeaverClient::terminal, Duration.ofSeconds(30));
        for (Map.Entry<String, UUID> node : jobs.entrySet()) {
            JsonNode job = ended.get(node.getValue());
            assertThat(job).as(node.getKey()).isNotNull();
            assertThat(job.path("status").asText()).as(node.getKey()).isEqualTo("COMPLETED");
            assertThat(job.path("workflowRunId").asText()).as(node.getKey()).isEqualTo(run.id().toString());
            assertThat(job.path("traceId").asText()).as(node.getKey()).isEqualTo(run.traceId());
        }
        // Parallel: every branch started before any branch finished (each sleeps 1 s).
        Map<String, Execution> executions = new HashMap<>();
        jobs.forEach((node, job) -> executions.put(node, completedExecution(job)));
        Instant lastBranchStart = branches.stream().map(b -> executions.get(b).startedAt()).max(Instant::compareTo)
                .orElseThrow();
        Instant firstBranchEnd = branches.stream().map(b -> executions.get(b).finishedAt()).min(Instant::compareTo)
                .orElseThrow();
        assertThat(lastBranchStart).as("the last branch started before the first ended").isBefore(firstBranchEnd);
        Instant lastBranchEnd = branches.stream().map(b -> executions.get(b).finishedAt()).max(Instant::compareTo)
                .orElseThrow();
        assertThat(executions.get("join").startedAt()).isAfterOrEqualTo(lastBranchEnd);
        assertThat(executions.get("start").finishedAt()).isBeforeOrEqualTo(executions.get("b0").startedAt());
        // Fan-in: the join's job received the run's input and every branch's result (a SIMULATION node's result
        // shows what it received).
        JsonNode joined = ended.get(jobs.get("join")).path("result");
        assertThat(joined.path("input").path("day").asText()).isEqualTo("2026-11-26");
        assertThat(iterable(joined.path("results").fieldNames())).containsExactlyInAnyOrderElementsOf(branches);
        assertThat(joined.path("results").path("b3").path("input").path("day").asText()).isEqualTo("2026-11-26");
        System.out.printf("[measure] workflows: 1 + 10 + 1 nodes; run start to join start %d ms; the branches ran"
                        + " within %d ms of each other%n",
                Duration.between(Instant.parse(done.path("createdAt").asText()), executions.get("join").startedAt())
                        .toMillis(),
                Duration.between(branches.stream().map(b -> executions.get(b).startedAt()).min(Instant::compareTo)
                        .orElseThrow(), lastBranchStart).toMillis());
    }

    @Test
    void failFastCancelsWhatHasNotFinished() {
        JobWeaverClient api = E2ePlatform.api();
        JsonNode done = failedRun(api, "FAIL_FAST");
        Map<String, String> statuses = statuses(done);
        assertThat(statuses).containsEntry("a", "COMPLETED").containsEntry("bad", "FAILED")
                .containsEntry("slow", "CANCELLED").containsEntry("after-bad", "CANCELLED")
                .containsEntry("after-slow", "CANCELLED");
        // The run ends as the failure is recorded; the running job's cancel reaches the worker and comes back after.
        UUID slow = nodeJobs(done).get("slow");
        assertThat(api.awaitAll(List.of(slow), JobWeaverClient::terminal, Duration.ofSeconds(30)).get(slow)
                .path("status").asText()).isEqualTo("CANCELLED");
    }

    @Test
    void continueRunsEveryNodeThatDoesNotDependOnTheFailure() {
        JsonNode done = failedRun(E2ePlatform.api(), "CONTINUE");
        assertThat(statuses(done)).containsEntry("a", "COMPLETED").containsEntry("bad", "FAILED")
                .containsEntry("slow", "COMPLETED").containsEntry("after-bad", "SKIPPED")
                .containsEntry("after-slow", "COMPLETED");
        assertThat(nodeJobs(done)).doesNotContainKey("after-bad");
    }

    @Test
    void aFailedRunRetriedCompletesUnderItsRunIdWithItsNodeJobsAttemptsNumberedOn() throws Exception {
        // an HTTP node against a service that answers 500 until it is repaired, as a real outage ends
        AtomicBoolean repaired = new AtomicBoolean();
        HttpServer flaky = flakyServer(repaired);
        try {
            JobWeaverClient api = E2ePlatform.api();
            UUID workflow = create(api, "{\"name\":\"retried\",\"nodes\":["
                    + node("fetch", httpGet(flaky), List.of()) + ","
                    + node("after", Jobs.noop(), List.of("fetch")) + "]}");
            Run run = start(api, workflow, "{}");
            JsonNode failed = awaitEnded(api, run.id(), Duration.ofSeconds(60));
            assertThat(failed.path("status").asText()).isEqualTo("FAILED");
            assertThat(statuses(failed)).containsEntry("fetch", "FAILED").containsEntry("after", "CANCELLED");
            UUID fetch = nodeJobs(failed).get("fetch");
            // the node's job went to the dead letters, as any job whose retries are spent
            api.awaitAll(List.of(fetch), JobWeaverClient::terminal, Duration.ofSeconds(30));
            awaitStatus(api, "/api/dead-letters/" + fetch, 200, Duration.ofSeconds(30));

            repaired.set(true);
            JsonNode asked = api.postExpecting("/api/workflow-runs/" + run.id() + "/retry", null, 202);
            assertThat(asked.path("runId").asText()).isEqualTo(run.id().toString());

            JsonNode done = awaitEnded(api, run.id(), Duration.ofSeconds(60), "COMPLETED");
            assertThat(statuses(done)).containsEntry("fetch", "COMPLETED").containsEntry("after", "COMPLETED");
            assertThat(nodeJobs(done)).containsEntry("fetch", fetch);
            JsonNode job = api.awaitAll(List.of(fetch), j -> j.path("attempts").asInt() == 2
                    && JobWeaverClient.terminal(j), Duration.ofSeconds(30)).get(fetch);
            assertThat(job.path("status").asText()).as(job.toString()).isEqualTo("COMPLETED");
            assertThat(job.path("workflowRunId").asText()).isEqualTo(run.id().toString());
            assertThat(job.path("traceId").asText()).isEqualTo(run.traceId());
            assertThat(api.post("/api/workflow-runs/" + run.id() + "/retry", null).status())
                    .as("a completed run is not retried").isEqualTo(409);
        } finally {
            flaky.stop(0);
        }
    }

    @Test
    void aNodesDeadLetterRequeuedResumesItsRunToItsEnd() throws Exception {
        AtomicBoolean repaired = new AtomicBoolean();
        HttpServer flaky = flakyServer(repaired);
        try {
            JobWeaverClient api = E2ePlatform.api();
            UUID workflow = create(api, "{\"name\":\"resumed\",\"onFailure\":\"CONTINUE\",\"nodes\":["
                    + node("fetch", httpGet(flaky), List.of()) + ","
                    + node("after", Jobs.noop(), List.of("fetch")) + "]}");
            Run run = start(api, workflow, "{}");
            JsonNode failed = awaitEnded(api, run.id(), Duration.ofSeconds(60));
            assertThat(statuses(failed)).containsEntry("fetch", "FAILED").containsEntry("after", "SKIPPED");
            UUID fetch = nodeJobs(failed).get("fetch");
            awaitStatus(api, "/api/dead-letters/" + fetch, 200, Duration.ofSeconds(30));

            repaired.set(true);
            JobWeaverClient.Answer requeued = api.post("/api/dead-letters/" + fetch + "/requeue", null);
            assertThat(requeued.status()).as(requeued.rawBody()).isEqualTo(202);

            JsonNode done = awaitEnded(api, run.id(), Duration.ofSeconds(60), "COMPLETED");
            assertThat(statuses(done)).containsEntry("fetch", "COMPLETED").containsEntry("after", "COMPLETED");
            JsonNode job = api.awaitAll(List.of(fetch), j -> j.path("attempts").asInt() == 2
                    && JobWeaverClient.terminal(j), Duration.ofSeconds(30)).get(fetch);
            assertThat(job.path("status").asText()).as(job.toString()).isEqualTo("COMPLETED");
        } finally {
            flaky.stop(0);
        }
    }

    @Test
    void aCancelledRunCancelsItsRunningAndWaitingNodes() {
        JobWeaverClient api = E2ePlatform.api();
        UUID workflow = create(api, "{\"name\":\"cancel\",\"nodes\":[" + node("long", Jobs.sleeping(20_000), List.of())
                + "," + node("next", Jobs.noop(), List.of("long")) + "]}");
        Run run = start(api, workflow, "{}");
        awaitNode(api, run.id(), "long", "RUNNING", Duration.ofSeconds(30));

        assertThat(api.post("/api/workflow-runs/" + run.id() + "/cancel", null).status()).isEqualTo(202);
        JsonNode done = awaitEnded(api, run.id(), Duration.ofSeconds(30));

        assertThat(done.path("status").asText()).isEqualTo("CANCELLED");
        assertThat(statuses(done)).containsEntry("long", "CANCELLED").containsEntry("next", "CANCELLED");
        UUID sleeper = nodeJobs(done).get("long");
        assertThat(api.awaitAll(List.of(sleeper), JobWeaverClient::terminal, Duration.ofSeconds(30)).get(sleeper)
                .path("status").asText()).isEqualTo("CANCELLED");
        assertThat(api.post("/api/workflow-runs/" + run.id() + "/cancel", null).status()).isEqualTo(409);
    }

    @Test
    void aRunKeepsTheVersionItStartedWith() {
        JobWeaverClient api = E2ePlatform.api();
        UUID workflow = create(api, "{\"name\":\"versions\",\"nodes\":[" + node("first", Jobs.sleeping(2_000),
                List.of()) + "," + node("second", Jobs.noop(), List.of("first")) + "]}");
        Run old = start(api, workflow, "{}");
        JsonNode changed = api.put("/api/workflows/" + workflow, "{\"name\":\"versions\",\"nodes\":["
                + node("only", Jobs.noop(), List.of()) + "]}").body();
        assertThat(changed.path("version").asInt()).isEqualTo(2);
        Run fresh = start(api, workflow, "{}");

        JsonNode oldDone = awaitEnded(api, old.id(), Duration.ofSeconds(60));
        JsonNode freshDone = awaitEnded(api, fresh.id(), Duration.ofSeconds(60));

        assertThat(oldDone.path("version").asInt()).isEqualTo(1);
        assertThat(statuses(oldDone)).containsOnlyKeys("first", "second").containsValue("COMPLETED");
        assertThat(freshDone.path("version").asInt()).isEqualTo(2);
        assertThat(statuses(freshDone)).containsOnlyKeys("only");
    }

    @Test
    void aScheduleStartsRunsOfItsWorkflowOneAtATimeUnderOverlapSkip() {
        JobWeaverClient api = E2ePlatform.api();
        // each run takes about 2.5 s; the schedule ticks every second
        UUID workflow = create(api, "{\"name\":\"scheduled\",\"nodes\":[" + node("work", Jobs.sleeping(2_500),
                List.of()) + "," + node("report", Jobs.noop(), List.of("work")) + "]}");
        JsonNode schedule = api.postExpecting("/api/schedules", "{\"name\":\"every second\",\"interval\":\"PT1S\","
                + "\"overlap\":\"SKIP\",\"workflowId\":\"" + workflow + "\"}", 201);
        String scheduleId = schedule.path("id").asText();
        List<JsonNode> ended;
        try {
            ended = awaitEndedRuns(api, workflow, 3, Duration.ofSeconds(60));
        } finally {
            assertThat(api.deletePath("/api/schedules/" + scheduleId).status()).isEqualTo(204);
        }

        List<JsonNode> byStart = new ArrayList<>(ended);
        byStart.sort(java.util.Comparator.comparing(r -> Instant.parse(r.path("createdAt").asText())));
        for (JsonNode run : byStart) {
            assertThat(run.path("status").asText()).isEqualTo("COMPLETED");
            assertThat(run.path("scheduleId").asText()).isEqualTo(scheduleId);
            assertThat(statuses(run)).containsOnlyKeys("work", "report").containsValue("COMPLETED");
        }
        for (int i = 1; i < byStart.size(); i++) {
            Instant previousEnd = Instant.parse(byStart.get(i - 1).path("finishedAt").asText());
            Instant next = Instant.parse(byStart.get(i).path("createdAt").asText());
            assertThat(next).as("run %d started after run %d ended (overlap: SKIP)", i, i - 1)
                    .isAfterOrEqualTo(previousEnd);
        }
        System.out.printf("[measure] workflows: a 1 s schedule of a 2.5 s workflow under overlap: SKIP started %d"
                + " runs one after the other%n", byStart.size());
    }

    @Test
    void aSignedHookStartsOneRunWithItsBodyAsInputAndAForgedOneNone() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        UUID workflow = create(api, "{\"name\":\"hooked\",\"nodes\":[" + node("only", Jobs.noop(), List.of()) + "]}");
        JsonNode hook = api.postExpecting("/api/hooks", "{\"name\":\"deploys\",\"workflowId\":\"" + workflow + "\"}",
                201);
        String url = hook.path("url").asText();
        String path = url.substring(url.indexOf("/api/hooks/"));
        String secret = hook.path("secret").asText();
        String body = "{\"ref\":\"main\"}";
        String timestamp = Long.toString(Instant.now().getEpochSecond());

        JobWeaverClient.Answer forged = callHook(api, path, timestamp, sign(secret + "x", timestamp, body), body);
        JobWeaverClient.Answer first = callHook(api, path, timestamp, sign(secret, timestamp, body), body);
        JobWeaverClient.Answer again = callHook(api, path, timestamp, sign(secret, timestamp, body), body);

        assertThat(forged.status()).isEqualTo(401);
        assertThat(first.status()).as(first.rawBody()).isEqualTo(202);
        UUID runId = UUID.fromString(first.body().path("runId").asText());
        assertThat(again.body().path("runId").asText()).as("a replay answers the same run").isEqualTo(runId.toString());
        JsonNode done = awaitEnded(api, runId, Duration.ofSeconds(60));
        assertThat(done.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.path("input").path("ref").asText()).isEqualTo("main");
        assertThat(api.get("/api/workflows/" + workflow + "/runs").body().path("totalElements").asLong())
                .as("runs of the hooked workflow").isEqualTo(1);
    }

    @Test
    void aGraphWithACycleIsRefusedNamingIt() {
        JobWeaverClient.Answer answer = E2ePlatform.api().post("/api/workflows", "{\"name\":\"loop\",\"nodes\":["
                + node("a", Jobs.noop(), List.of("c")) + "," + node("b", Jobs.noop(), List.of("a")) + ","
                + node("c", Jobs.noop(), List.of("b")) + "]}");

        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.rawBody()).contains("cycle").contains("a").contains("b").contains("c");
    }

    @Test
    void aRunIsOneTraceWithEveryNodesJobInIt() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        UUID workflow = create(api, "{\"name\":\"traced\",\"nodes\":[" + node("a", Jobs.noop(), List.of()) + ","
                + node("b", Jobs.noop(), List.of("a")) + "," + node("c", Jobs.noop(), List.of("a")) + "]}");
        Run run = start(api, workflow, "{}");
        JsonNode done = awaitEnded(api, run.id(), Duration.ofSeconds(60));
        assertThat(done.path("status").asText()).isEqualTo("COMPLETED");
        Set<String> jobIds = new HashSet<>();
        nodeJobs(done).values().forEach(id -> jobIds.add(id.toString()));

        Zipkin zipkin = E2ePlatform.get().zipkin().orElseThrow();
        TraceViewer traces = new TraceViewer(zipkin.apiUrl());
        Set<String> tagged = new HashSet<>();
        Set<String> services = new HashSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline && (!tagged.containsAll(jobIds) || services.size() < 3)) {
            Optional<JsonNode> spans = traces.spans(run.traceId());
            if (spans.isPresent()) {
                for (JsonNode span : spans.get()) {
                    services.add(span.path("localEndpoint").path("serviceName").asText());
                    String job = span.path("tags").path("jobweaver.job.id").asText(null);
                    if (job != null) {
                        tagged.add(job);
                    }
                }
            }
            E2ePlatform.awaitQuietly(500);
        }

        assertThat(tagged).as("jobs with spans in trace %s", run.traceId()).containsAll(jobIds);
        assertThat(services).anyMatch(s -> s.contains("api")).anyMatch(s -> s.contains("scheduler"))
                .anyMatch(s -> s.contains("worker"));
    }

    @Test
    void runsEndWithEveryNodeRunOnceWhileTheSchedulerIsKilledAgainAndAgain() {
        JobWeaverClient api = E2ePlatform.api();
        // Four layers of five nodes, each depending on the whole layer before: 20 nodes, 16 fan-ins.
        StringBuilder nodes = new StringBuilder();
        List<String> previous = List.of();
        for (int layer = 0; layer < 4; layer++) {
            List<String> current = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                String id = "l" + layer + "n" + i;
                current.add(id);
                nodes.append(nodes.isEmpty() ? "" : ",").append(node(id, Jobs.sleeping(300), previous));
            }
            previous = current;
        }
        UUID workflow = create(api, "{\"name\":\"kills\",\"nodes\":[" + nodes + "]}");
        List<UUID> runs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            runs.add(start(api, workflow, "{\"input\":{\"run\":" + i + "}}").id());
        }

        // SIGKILL the scheduler four times, 1.5 s apart: the platform restarts it a second after each kill, so
        // kills land in every phase (ingesting, dispatching, recording outcomes, publishing progress).
        for (int kill = 0; kill < 4; kill++) {
            E2ePlatform.awaitQuietly(1_500);
            E2ePlatform.get().instances(Service.SCHEDULER).getFirst().kill();
        }
        E2ePlatform.awaitHealthy();

        List<UUID> allJobs = new ArrayList<>();
        for (UUID run : runs) {
            JsonNode done = awaitEnded(api, run, Duration.ofMinutes(3));
            assertThat(done.path("status").asText()).as("run %s", run).isEqualTo("COMPLETED");
            assertThat(statuses(done)).hasSize(20)
                    .allSatisfy((node, status) -> assertThat(status).as(node).isEqualTo("COMPLETED"));
            allJobs.addAll(nodeJobs(done).values());
        }
        Map<UUID, Integer> completions = Executions.completedPerJob(allJobs);
        assertThat(completions).hasSize(100);
        assertThat(completions.values()).as("completed executions per node job").containsOnly(1);
        assertThat(jobsOfRuns(runs)).as("jobs the API holds for these runs").isEqualTo(100);
        System.out.printf("[measure] workflows: 5 runs of 20 nodes with the scheduler SIGKILLed 4 times: all 5 runs"
                + " COMPLETED, 100 node jobs, each completed exactly once%n");
    }

    // ---- helpers

    private record Run(UUID id, String traceId) {
    }

    private record Execution(Instant startedAt, Instant finishedAt) {
    }

    private static JobWeaverClient.Answer callHook(JobWeaverClient api, String path, String timestamp, String signature,
                                                   String body) {
        return api.send(HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
                .header("Content-Type", "application/json").header("X-JobWeaver-Timestamp", timestamp)
                .header("X-JobWeaver-Signature", signature).POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** {@code sha256=} and the lower-case hex HMAC-SHA256 of "timestamp.body", as the SPEC writes it. */
    private static String sign(String secret, String timestamp, String body) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                "HmacSHA256"));
        byte[] digest = mac.doFinal((timestamp + "." + body).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return "sha256=" + java.util.HexFormat.of().formatHex(digest);
    }

    private static String node(String id, String job, List<String> dependsOn) {
        StringBuilder deps = new StringBuilder();
        for (String d : dependsOn) {
            deps.append(deps.isEmpty() ? "" : ",").append('"').append(d).append('"');
        }
        return "{\"id\":\"" + id + "\",\"job\":" + job + ",\"dependsOn\":[" + deps + "]}";
    }

    /** Runs {@link #failingGraph} with this failure policy to its end, which must be FAILED. */
    private static JsonNode failedRun(JobWeaverClient api, String onFailure) {
        UUID workflow = create(api, failingGraph(onFailure));
        JsonNode done = awaitEnded(api, start(api, workflow, "{}").id(), Duration.ofSeconds(60));
        assertThat(done.path("status").asText()).isEqualTo("FAILED");
        return done;
    }

    /** a, then bad (fails at once, no retry) and slow (5 s) beside it, and one node after each. */
    private static String failingGraph(String onFailure) {
        return "{\"name\":\"failing\",\"onFailure\":\"" + onFailure + "\",\"nodes\":["
                + node("a", Jobs.noop(), List.of()) + ","
                + node("bad", Jobs.failing("broken on purpose", 0), List.of("a")) + ","
                + node("slow", Jobs.sleeping(5_000), List.of("a")) + ","
                + node("after-bad", Jobs.noop(), List.of("bad")) + ","
                + node("after-slow", Jobs.noop(), List.of("slow")) + "]}";
    }

    private static UUID create(JobWeaverClient api, String body) {
        JsonNode created = api.postExpecting("/api/workflows", body, 201);
        assertThat(created.path("version").asInt()).isEqualTo(1);
        return UUID.fromString(created.path("id").asText());
    }

    private static Run start(JobWeaverClient api, UUID workflow, String body) {
        JsonNode started = api.postExpecting("/api/workflows/" + workflow + "/runs", body, 202);
        String traceId = started.path("traceId").asText();
        assertThat(traceId).matches("[0-9a-f]{32}");
        return new Run(UUID.fromString(started.path("runId").asText()), traceId);
    }

    private static JsonNode run(JobWeaverClient api, UUID run) {
        JobWeaverClient.Answer answer = api.get("/api/workflow-runs/" + run);
        assertThat(answer.status()).as("GET run %s", run).isEqualTo(200);
        return answer.body();
    }

    /** The first {@code count} runs of {@code workflow} that ended, waiting for them up to {@code timeout}. */
    private static List<JsonNode> awaitEndedRuns(JobWeaverClient api, UUID workflow, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<JsonNode> ended = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            ended.clear();
            api.get("/api/workflows/" + workflow + "/runs?size=100").body().path("runs").forEach(r -> {
                if (!r.path("finishedAt").isMissingNode() && !r.path("finishedAt").isNull()) {
                    ended.add(r);
                }
            });
            if (ended.size() >= count) {
                return ended;
            }
            E2ePlatform.awaitQuietly(250);
        }
        throw new AssertionError(count + " runs of workflow " + workflow + " did not end within " + timeout
                + "; ended: " + ended.size());
    }

    /** A local HTTP service whose {@code /data} answers 500 until {@code repaired}, then 200. */
    private static HttpServer flakyServer(AtomicBoolean repaired) throws java.io.IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/data", exchange -> {
            byte[] body = (repaired.get() ? "{\"rows\":3}" : "down").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(repaired.get() ? 200 : 500, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    /** An HTTP job, no retry, getting {@code server}'s {@code /data}. */
    private static String httpGet(HttpServer server) {
        return "{\"jobType\":\"HTTP\",\"payload\":{\"method\":\"GET\",\"url\":\"http://127.0.0.1:"
                + server.getAddress().getPort() + "/data\"},\"maxRetryCount\":0}";
    }

    private static void awaitStatus(JobWeaverClient api, String path, int status, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int last = 0;
        while (System.nanoTime() < deadline) {
            last = api.get(path).status();
            if (last == status) {
                return;
            }
            E2ePlatform.awaitQuietly(200);
        }
        throw new AssertionError("GET " + path + " answered " + last + ", not " + status + ", for " + timeout);
    }

    /** The run once it shows {@code status}, waiting up to {@code timeout}. */
    private static JsonNode awaitEnded(JobWeaverClient api, UUID id, Duration timeout, String status) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = run(api, id);
            if (last.path("status").asText().equals(status)) {
                return last;
            }
            E2ePlatform.awaitQuietly(200);
        }
        throw new AssertionError("run " + id + " did not end " + status + " within " + timeout + "; last: " + last);
    }

    private static JsonNode awaitEnded(JobWeaverClient api, UUID id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = run(api, id);
            String status = last.path("status").asText();
            if (status.equals("COMPLETED") || status.equals("FAILED") || status.equals("CANCELLED")) {
                // Node statuses follow their jobs' ends; the run ends with the last of them.
                return last;
            }
            E2ePlatform.awaitQuietly(200);
        }
        throw new AssertionError("run " + id + " did not end within " + timeout + "; last: " + last);
    }

    private static void awaitNode(JobWeaverClient api, UUID id, String node, String status, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (status.equals(statuses(run(api, id)).get(node))) {
                return;
            }
            E2ePlatform.awaitQuietly(100);
        }
        throw new AssertionError("node " + node + " of run " + id + " was not " + status + " within " + timeout);
    }

    private static Map<String, String> statuses(JsonNode run) {
        Map<String, String> statuses = new LinkedHashMap<>();
        run.path("nodes").forEach(n -> statuses.put(n.path("id").asText(), n.path("status").asText()));
        return statuses;
    }

    private static Map<String, UUID> nodeJobs(JsonNode run) {
        Map<String, UUID> jobs = new LinkedHashMap<>();
        run.path("nodes").forEach(n -> {
            if (n.hasNonNull("jobId")) {
                jobs.put(n.path("id").asText(), UUID.fromString(n.path("jobId").asText()));
            }
        });
        return jobs;
    }

    /** The one completed execution of {@code job} on the workers; fails unless there is exactly one. */
    private static Execution completedExecution(UUID job) {
        try (Connection c = E2ePlatform.database("jobweaver_worker");
             PreparedStatement query = c.prepareStatement("SELECT started_at, finished_at FROM execution_attempts"
                     + " WHERE job_id = ? AND outcome = 'SUCCESS'")) {
            query.setObject(1, job);
            List<Execution> found = new ArrayList<>();
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    found.add(new Execution(rs.getTimestamp(1).toInstant(), rs.getTimestamp(2).toInstant()));
                }
            }
            assertThat(found).as("completed executions of job %s", job).hasSize(1);
            return found.getFirst();
        } catch (SQLException e) {
            throw new IllegalStateException("could not read execution_attempts", e);
        }
    }

    /** How many jobs the API's read model holds for the given runs. */
    private static long jobsOfRuns(List<UUID> runs) {
        try (Connection c = E2ePlatform.database("jobweaver_api");
             PreparedStatement query = c.prepareStatement("SELECT count(*) FROM jobs WHERE workflow_run_id = ANY (?)")) {
            query.setArray(1, c.createArrayOf("uuid", runs.toArray()));
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read jobs", e);
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
