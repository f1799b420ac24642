package dev.jobweaver.bench;

import static dev.jobweaver.bench.ApiText.field;
import static dev.jobweaver.bench.ApiText.instant;
import static dev.jobweaver.bench.ApiText.shorten;
import static dev.jobweaver.bench.ApiText.sleep;
import static dev.jobweaver.bench.ApiText.uuid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.job.JobIds;
import io.vertx.core.http.HttpMethod;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * The workflow workload's part of {@link WorkloadRunner}: creates a fan-out and a diamond workflow, runs the fan-out
 * {@link BenchOptions#workflowRuns} times one after another and the diamond {@link BenchOptions#diamondRuns} times
 * with {@link BenchOptions#concurrency} requests in flight, reads each run and its node jobs, and deletes the
 * workflows.
 */
final class WorkflowBench {

    /** Period of the reads of a fan-out run until it ends, milliseconds: it only adds idle time between runs. */
    static final long FAN_OUT_POLL_MS = 50;

    /** Pause between two rounds of reads of the open diamond runs, milliseconds. */
    static final long DIAMOND_POLL_MS = 100;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BenchOptions options;
    private final ApiClient api;
    private final NodeJobs db;
    private final PrintStream out;
    private final boolean terminal;
    /** Fan-out runs requested: fewer than asked for when one did not end. */
    private int fanOutSent;

    /** Where the node jobs' rows come from: {@link PlatformDb}, or a test's own. */
    interface NodeJobs {

        /** {@link PlatformDb#records}. */
        List<JobRecord> records(List<Accepted> jobs);

        /** {@link PlatformDb#workerProblem}. */
        String workerProblem();
    }

    /** The workload against {@code api}, reading the node jobs' rows through {@code db}, progress on {@code out}. */
    WorkflowBench(BenchOptions options, ApiClient api, NodeJobs db, PrintStream out, boolean terminal) {
        this.options = options;
        this.api = api;
        this.db = db;
        this.out = out;
        this.terminal = terminal;
    }

    /**
     * Whether the platform has workflows: a one-node workflow must be created (201 with an id); it is deleted at once.
     * Returns why not, or null when it has; an API without the path (404 or 405) makes the workload unavailable.
     */
    String probe(String label) {
        out.println(label + ": probing POST /api/workflows (one workflow, deleted at once)...");
        ApiClient.Answer answer = api.send(HttpMethod.POST, "/api/workflows", probeBody()).join();
        if (answer.status() == 404 || answer.status() == 405) {
            return "the API answers " + answer.status() + " to POST /api/workflows (" + shorten(answer.body())
                    + "); the platform does not support workflows";
        }
        if (answer.status() != 201) {
            return "the probe workflow was answered " + answer.status() + " " + shorten(answer.body()) + ", not 201";
        }
        String id = field(answer.body(), "id");
        if (id == null) {
            return "the probe workflow's 201 has no id: " + shorten(answer.body());
        }
        api.send(HttpMethod.DELETE, "/api/workflows/" + id, null).join();
        return null;
    }

    /** A workflow of one no-op node. */
    static String probeBody() {
        return "{\"name\":\"" + WorkflowRuns.NAME_PREFIX + "probe\",\"nodes\":[{\"id\":\"only\",\"job\":"
                + JobKind.NOOP.body() + "}],\"onFailure\":\"FAIL_FAST\"}";
    }

    /** Does the workload: the probe, the fan-out runs, the diamond runs, the reads, the deletion. */
    WorkloadResult run(BenchOptions.Run run) {
        String unavailable = probe(run.label());
        if (unavailable != null) {
            return WorkloadResult.unavailable(run, unavailable);
        }
        List<String> notes = new ArrayList<>();
        List<String> created = Collections.synchronizedList(new ArrayList<>());
        Thread cleanup = Thread.ofPlatform().unstarted(() -> {
            try (ApiClient client = api.another()) {
                delete(client, List.copyOf(created));
            } catch (RuntimeException e) {
                System.err.println("bench: could not delete the workflows named " + WorkflowRuns.NAME_PREFIX + "*: "
                        + e.getMessage());
            }
        });
        // a bench stopped with Ctrl-C must not leave its workflows behind
        Runtime.getRuntime().addShutdownHook(cleanup);
        String stamp = Long.toString(System.currentTimeMillis(), 36);
        List<Observed> observed = new ArrayList<>();
        int deleted;
        try {
            String fanOut = create(WorkflowRuns.Shape.FAN_OUT, stamp, created);
            String diamond = create(WorkflowRuns.Shape.DIAMOND, stamp, created);
            out.println(run.label() + ": " + options.workflowRuns() + " runs of a " + WorkflowRuns.FAN_OUT_BRANCHES
                    + "-branch fan-out, one after another...");
            observed.addAll(fanOutRuns(run.label(), fanOut, notes));
            out.println(run.label() + ": " + options.diamondRuns() + " runs of a 5-node diamond, "
                    + options.concurrency() + " in flight...");
            observed.addAll(diamondRuns(run.label(), diamond, notes));
        } finally {
            deleted = delete(api, List.copyOf(created));
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        if (deleted < created.size()) {
            notes.add("only " + deleted + " of " + created.size() + " workflows deleted: delete the workflows named "
                    + WorkflowRuns.NAME_PREFIX + "* by hand");
        }
        List<WorkflowRuns.Run> runs = withJobs(observed);
        WorkloadRunner.noteProblem(notes, WorkloadRunner.WORKER_UNREAD, db.workerProblem());
        WorkflowRuns figures = WorkflowRuns.of(runs, fanOutSent, options.diamondRuns(),
                options.concurrency(), deleted);
        notes.add(0, String.format(java.util.Locale.ROOT, "fan-out: start, %d no-op branches, join (%d nodes), "
                        + "%d runs one after another; diamond: a -> b, c, d -> e, %d runs, %d requests in flight; "
                        + "node jobs' start = execution_attempts.started_at, finish = jobs.finished_at; runs/s over "
                        + "the first request to the last run's finishedAt", WorkflowRuns.FAN_OUT_BRANCHES,
                WorkflowRuns.FAN_OUT_BRANCHES + 2, options.workflowRuns(), options.diamondRuns(),
                options.concurrency()));
        return WorkloadResult.flowed(run, figures, String.join("; ", notes));
    }

    /** Creates the workflow of {@code shape}; its id goes into {@code created}. */
    private String create(WorkflowRuns.Shape shape, String stamp, List<String> created) {
        ApiClient.Answer answer = api.send(HttpMethod.POST, "/api/workflows",
                shape.body(WorkflowRuns.NAME_PREFIX + stamp + "-" + shape.label())).join();
        String id = answer.status() == 201 ? field(answer.body(), "id") : null;
        if (id == null) {
            throw new IllegalStateException("the " + shape.label() + " workflow was answered " + answer.status() + " "
                    + shorten(answer.body()) + ", not 201 with an id");
        }
        created.add(id);
        return id;
    }

    /** Deletes each workflow of {@code ids}; returns how many were answered 204 (or 404: already gone). */
    static int delete(ApiClient client, List<String> ids) {
        int deleted = 0;
        for (String id : ids) {
            int status = client.send(HttpMethod.DELETE, "/api/workflows/" + id, null).join().status();
            deleted += status == 204 || status == 404 ? 1 : 0;
        }
        return deleted;
    }

    /**
     * One accepted run as the bench saw it: its request and answer, and its last reading.
     *
     * @param shape which workflow
     * @param runId its id
     * @param sentAt when its request was sent
     * @param acceptedAt when its 202 arrived
     * @param answerMs from sending to the whole 202
     * @param state its last reading; null without one
     */
    record Observed(WorkflowRuns.Shape shape, UUID runId, Instant sentAt, Instant acceptedAt, double answerMs,
                    RunState state) {
    }

    /**
     * A reading of {@code GET /api/workflow-runs/{runId}}.
     *
     * @param status the run's status
     * @param createdAt its {@code createdAt}; null without one
     * @param finishedAt its {@code finishedAt}; null without one
     * @param nodes by node id, each node's status and job id (null without one)
     */
    record RunState(String status, Instant createdAt, Instant finishedAt, Map<String, NodeState> nodes) {

        /** Whether the run has ended. */
        boolean ended() {
            return WorkflowRuns.RUN_ENDED.contains(status);
        }

        /** Its nodes that have ended, for telling a reading that moved from one that did not. */
        long endedNodes() {
            return nodes.values().stream().filter(n -> n.status() != null && List.of("COMPLETED", "FAILED",
                    "CANCELLED", "SKIPPED").contains(n.status())).count();
        }
    }

    /** One node in a {@link RunState}: its status and its job's id (null while it has none). */
    record NodeState(String status, UUID jobId) {
    }

    /** The run in {@code body}; null when it is not one. */
    static RunState parseRun(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.path("status").isTextual()) {
                return null;
            }
            Map<String, NodeState> nodes = new LinkedHashMap<>();
            for (JsonNode n : node.path("nodes")) {
                String id = n.path("id").asText(null);
                if (id != null) {
                    nodes.put(id, new NodeState(n.path("status").asText(null), uuid(n.path("jobId").asText(null))));
                }
            }
            return new RunState(node.path("status").asText(), instant(node.path("createdAt").asText(null)),
                    instant(node.path("finishedAt").asText(null)), nodes);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** The answer to one run request. */
    record Started(UUID runId, Instant sentAt, Instant acceptedAt, double answerMs, String refusal) {
    }

    /** Sends one run request of workflow {@code id} through {@code client}. */
    static java.util.concurrent.CompletableFuture<Started> start(ApiClient client, String id) {
        Instant sentAt = Instant.now();
        long sent = System.nanoTime();
        return client.send(HttpMethod.POST, "/api/workflows/" + id + "/runs", WorkflowRuns.RUN_BODY).thenApply(a -> {
            // taken on the client's event loop as the answer arrives: the start of the fan-out's first figure
            Instant at = Instant.now();
            double ms = (System.nanoTime() - sent) / 1e6;
            UUID runId = a.status() == 202 ? uuid(field(a.body(), "runId")) : null;
            return new Started(runId, sentAt, at, ms, runId != null ? null : a.status() + " " + shorten(a.body()));
        });
    }

    /** The fan-out's runs, one after another, each read until it ended (or the stall timeout). */
    private List<Observed> fanOutRuns(String label, String id, List<String> notes) {
        List<Observed> runs = new ArrayList<>();
        String firstRefusal = null;
        try (Progress progress = new Progress(label + " fan-out", options.workflowRuns(), out, terminal)) {
            for (int i = 0; i < options.workflowRuns(); i++) {
                Started started = start(api, id).join();
                fanOutSent++;
                progress.sent();
                if (started.runId() == null) {
                    firstRefusal = firstRefusal == null ? started.refusal() : firstRefusal;
                    continue;
                }
                RunState state = awaitRun(started.runId(), notes);
                runs.add(new Observed(WorkflowRuns.Shape.FAN_OUT, started.runId(), started.sentAt(),
                        started.acceptedAt(), started.answerMs(), state));
                progress.done(1);
                if (state == null || !state.ended()) {
                    // each further run would wait as long: one stuck run is the finding
                    notes.add("the other " + (options.workflowRuns() - i - 1) + " fan-out runs were not started");
                    break;
                }
            }
        }
        if (firstRefusal != null) {
            notes.add("first fan-out run not answered 202 with a runId: " + firstRefusal);
        }
        return runs;
    }

    /** Reads run {@code runId} until it ended, or {@link BenchOptions#timeout} passed without a change. */
    private RunState awaitRun(UUID runId, List<String> notes) {
        RunState last = null;
        long lastChange = System.nanoTime();
        while (true) {
            RunState state = read(api, runId);
            if (state != null && state.ended()) {
                return state;
            }
            if (state != null && (last == null || !state.status().equals(last.status())
                    || state.endedNodes() != last.endedNodes())) {
                lastChange = System.nanoTime();
            }
            last = state != null ? state : last;
            if (System.nanoTime() - lastChange > options.timeout().toNanos()) {
                notes.add("fan-out run " + runId + (last == null ? " could not be read (GET /api/workflow-runs/"
                        + runId + ")" : " had not ended") + " after " + options.timeout().toSeconds()
                        + " s without a change");
                return last;
            }
            sleep(FAN_OUT_POLL_MS);
        }
    }

    static RunState read(ApiClient client, UUID runId) {
        ApiClient.Answer answer = client.send(HttpMethod.GET, "/api/workflow-runs/" + runId, null).join();
        return answer.status() == 200 ? parseRun(answer.body()) : null;
    }

    /**
     * The diamond's runs, {@link BenchOptions#concurrency} requests in flight through a client of as many
     * connections; then each read until it ended.
     */
    private List<Observed> diamondRuns(String label, String id, List<String> notes) {
        int count = options.diamondRuns();
        int concurrency = options.concurrency();
        List<Started> started = Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.atomic.AtomicReference<String> firstRefusal = new java.util.concurrent.atomic
                .AtomicReference<>();
        try (ApiClient client = api.withConnections(concurrency);
             Progress progress = new Progress(label + " diamond", count, out, terminal)) {
            Semaphore permits = new Semaphore(concurrency);
            for (int i = 0; i < count; i++) {
                permits.acquireUninterruptibly();
                start(client, id).whenComplete((s, e) -> {
                    if (s != null && s.runId() != null) {
                        started.add(s);
                    } else {
                        firstRefusal.compareAndSet(null, s == null ? String.valueOf(e) : s.refusal());
                    }
                    progress.sent();
                    permits.release();
                });
            }
            permits.acquireUninterruptibly(concurrency);
            if (firstRefusal.get() != null) {
                notes.add("first diamond run not answered 202 with a runId: " + firstRefusal.get());
            }
            List<Started> accepted = new ArrayList<>(started);
            accepted.sort(java.util.Comparator.comparing(Started::sentAt));
            Map<UUID, RunState> states = awaitRuns(client, accepted, progress, notes);
            return accepted.stream().map(s -> new Observed(WorkflowRuns.Shape.DIAMOND, s.runId(), s.sentAt(),
                    s.acceptedAt(), s.answerMs(), states.get(s.runId()))).toList();
        }
    }

    /**
     * Reads the open runs in the order they were started until every one ended, or {@link BenchOptions#timeout}
     * passed without one ending. A round stops at the first run still open: runs end about in the order they start,
     * so a round costs about one read per run that ended since the last, and the reads take little of the API while
     * it works on the runs. The runs' own timestamps are the figures; when the reads happen does not matter.
     */
    private Map<UUID, RunState> awaitRuns(ApiClient client, List<Started> runs, Progress progress,
                                          List<String> notes) {
        Map<UUID, RunState> states = new ConcurrentHashMap<>();
        List<UUID> open = new ArrayList<>(runs.stream().map(Started::runId).toList());
        long lastChange = System.nanoTime();
        while (!open.isEmpty()) {
            int before = open.size();
            for (java.util.Iterator<UUID> it = open.iterator(); it.hasNext(); ) {
                UUID runId = it.next();
                RunState state = read(client, runId);
                if (state != null) {
                    states.put(runId, state);
                }
                if (state == null || !state.ended()) {
                    break;
                }
                it.remove();
            }
            progress.done(before - open.size());
            if (open.size() < before) {
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > options.timeout().toNanos()) {
                // the first open run may hold up a round; the others' last state is read once more
                int stuck = 0;
                for (UUID runId : open) {
                    RunState state = read(client, runId);
                    if (state != null) {
                        states.put(runId, state);
                    }
                    stuck += state == null || !state.ended() ? 1 : 0;
                }
                if (stuck > 0) {
                    notes.add(stuck + " diamond runs had not ended after " + options.timeout().toSeconds()
                            + " s without one ending");
                }
                return states;
            }
            sleep(DIAMOND_POLL_MS);
        }
        return states;
    }

    /** Each run with its nodes' jobs as the platform recorded them. */
    private List<WorkflowRuns.Run> withJobs(List<Observed> observed) {
        List<Accepted> jobs = new ArrayList<>();
        Map<UUID, Map<String, UUID>> jobIds = new HashMap<>();
        for (Observed o : observed) {
            Map<String, UUID> ids = jobIds(o);
            jobIds.put(o.runId(), ids);
            ids.values().forEach(jobId -> jobs.add(new Accepted(jobId, JobKind.NOOP, o.sentAt(), o.answerMs())));
        }
        Map<UUID, JobRecord> records = new HashMap<>();
        db.records(jobs).forEach(r -> records.put(r.jobId(), r));
        return observed.stream().map(o -> {
            Map<String, UUID> ids = jobIds.get(o.runId());
            List<WorkflowRuns.Node> nodes = o.shape().nodeIds().stream().map(n -> {
                NodeState node = o.state() == null ? null : o.state().nodes().get(n);
                return new WorkflowRuns.Node(n, node == null ? null : node.status(), records.get(ids.get(n)));
            }).toList();
            RunState s = o.state();
            return new WorkflowRuns.Run(o.shape(), o.runId(), o.sentAt(), o.acceptedAt(), o.answerMs(),
                    s == null ? null : s.status(), s == null ? null : s.createdAt(), s == null ? null : s.finishedAt(),
                    nodes);
        }).toList();
    }

    /**
     * The job id of each node of {@code run}: the one its reading names, else the one the platform gives a node's job
     * ({@link JobIds#forNode}), so that a node the reading left out is still looked up.
     */
    static Map<String, UUID> jobIds(Observed run) {
        Map<String, UUID> ids = new LinkedHashMap<>();
        for (String node : run.shape().nodeIds()) {
            NodeState state = run.state() == null ? null : run.state().nodes().get(node);
            ids.put(node, state != null && state.jobId() != null ? state.jobId() : JobIds.forNode(run.runId(), node));
        }
        return ids;
    }
}
