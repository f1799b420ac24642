package dev.jobweaver.bench;

import static dev.jobweaver.bench.ApiText.field;
import static dev.jobweaver.bench.ApiText.shorten;
import static dev.jobweaver.bench.ApiText.sleep;

import io.vertx.core.http.HttpMethod;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * The mixed workload's part of {@link WorkloadRunner}: the burst's no-op jobs with the platform's features in use at
 * once. Every job is sent with tenant {@link LimitsBench#TENANT} under a limit that does not bind; of every ten, one
 * carries an {@code Idempotency-Key} and another the label a subscription filters on; every
 * {@value #JOBS_PER_RUN} accepted jobs start one run of a {@value #RUN_NODES}-node workflow. The limit, the
 * subscription and the workflow are removed after, also when the workload fails.
 */
final class MixedBench {

    /** The slot among every ten jobs that carries an {@code Idempotency-Key}. */
    static final int KEYED_SLOT = 0;

    /** The slot among every ten jobs that carries the label the subscription filters on. */
    static final int LABELLED_SLOT = 5;

    /** Accepted jobs per workflow run started. */
    static final int JOBS_PER_RUN = 100;

    /** The workflow's nodes: a fan-out of eight no-op branches between a start and a join. */
    static final int RUN_NODES = 10;

    /** The label's key and value, on the labelled jobs and in the subscription's filter. */
    static final String LABEL_KEY = "bench-mix";
    static final String LABEL_VALUE = "hooked";

    /** How long the bench waits for webhooks after the jobs ended without a further one arriving. */
    static final Duration HOOK_QUIET = Duration.ofSeconds(15);

    /** Period of the reads of runs and of the receiver, milliseconds. */
    static final long POLL_MS = 100;

    private final BenchOptions options;
    private final ApiClient api;
    private final LimitsBench limits;
    private final Jobs jobs;
    private final PrintStream out;

    /** Where the workload sends its plain jobs: the runner, or a test's. */
    interface Jobs {

        /**
         * The jobs of {@code run} sent as the plain burst's, job {@code i} with {@code controls(i)}, each accepted one
         * also handed to {@code tap} (on the thread of its answer), and their figures.
         */
        WorkloadResult burst(BenchOptions.Run run, IntFunction<Control> controls, Consumer<Accepted> tap);
    }

    /** The workload against {@code api}, its limit set and awaited through {@code limits}, progress on {@code out}. */
    MixedBench(BenchOptions options, ApiClient api, LimitsBench limits, Jobs jobs, PrintStream out) {
        this.options = options;
        this.api = api;
        this.limits = limits;
        this.jobs = jobs;
        this.out = out;
    }

    /** The job-control fields of job {@code index}; {@code stamp} makes the keys unique to one invocation. */
    static Control control(int index, String stamp) {
        int slot = Math.floorMod(index, 10);
        return new Control(null, -1, LimitsBench.TENANT, slot == LABELLED_SLOT ? LABEL_KEY + ":" + LABEL_VALUE : null,
                slot == KEYED_SLOT ? "bench-mixed-" + stamp + "-" + index : null);
    }

    /** The {@code POST /api/subscriptions} body: every SIMULATION job labelled so, COMPLETED, to {@code url}. */
    static String subscriptionBody(String url) {
        return "{\"jobType\":\"SIMULATION\",\"labels\":{\"" + LABEL_KEY + "\":\"" + LABEL_VALUE + "\"},\"events\":[\""
                + Notifications.EVENT + "\"],\"url\":\"" + url + "\"}";
    }

    /** Whether a subscription's 201 {@code body} shows the label filter: the API took it rather than ignoring it. */
    static boolean filtered(String body) {
        return body != null && body.contains("\"" + LABEL_KEY + "\"") && body.contains("\"" + LABEL_VALUE + "\"");
    }

    /** Does the workload: the workflow, the limit, the subscription, the jobs, the repeats, the waits, the removals. */
    WorkloadResult run(BenchOptions.Run run) {
        String label = run.label();
        String stamp = Long.toString(System.currentTimeMillis(), 36);
        ApiClient.Answer created = api.send(HttpMethod.POST, "/api/workflows", WorkflowRuns.fanOutBody(
                WorkflowRuns.NAME_PREFIX + stamp + "-mixed", RUN_NODES - 2)).join();
        String workflow = created.status() == 201 ? field(created.body(), "id") : null;
        if (workflow == null) {
            return WorkloadResult.unavailable(run, "the " + RUN_NODES + "-node workflow was answered "
                    + created.status() + " " + shorten(created.body()) + ", not 201 with an id");
        }
        List<String> notes = new ArrayList<>();
        String subscription = null;
        boolean limited = false;
        AtomicReference<String> hooked = new AtomicReference<>();
        Thread cleanup = Thread.ofPlatform().unstarted(() -> {
            try (ApiClient client = api.another()) {
                remove(client, hooked.get(), workflow);
                client.send(HttpMethod.DELETE, LimitsBench.path(), null).join();
            } catch (RuntimeException e) {
                System.err.println("bench: could not remove the mixed workload's workflow " + workflow
                        + ", subscription " + hooked.get() + " or the limit of tenant " + LimitsBench.TENANT + ": "
                        + e.getMessage());
            }
        });
        // a bench stopped with Ctrl-C must not leave a subscription, a workflow or a limit behind
        Runtime.getRuntime().addShutdownHook(cleanup);
        try (NotifyEndpoint receiver = NotifyEndpoint.start()) {
            ApiClient.Answer set = api.send(HttpMethod.PUT, LimitsBench.path(),
                    LimitsBench.body(options.limitsBurst())).join();
            if (set.status() != 200) {
                return WorkloadResult.unavailable(run, "the limit " + LimitsBench.body(options.limitsBurst())
                        + " was answered " + set.status() + " " + shorten(set.body()) + ", not 200");
            }
            limited = true;
            limits.awaitScheduler(label, options.limitsBurst(), options.timeout(), notes);
            ApiClient.Answer subscribed = api.send(HttpMethod.POST, "/api/subscriptions",
                    subscriptionBody(receiver.url())).join();
            subscription = subscribed.status() == 201 ? field(subscribed.body(), "id") : null;
            hooked.set(subscription);
            boolean filtered = subscription != null && filtered(subscribed.body());
            if (subscription == null) {
                notes.add("the label filter's subscription was answered " + subscribed.status() + " "
                        + shorten(subscribed.body()) + ": no webhook asked for");
            } else if (!filtered) {
                // without the filter it would notify every job: the workload would not be the one described
                api.send(HttpMethod.DELETE, "/api/subscriptions/" + subscription, null).join();
                subscription = null;
                hooked.set(null);
                notes.add("POST /api/subscriptions took no label filter (its 201 shows none, so the subscription "
                        + "would notify every job; it was deleted): the labelled jobs ran without a webhook");
            }
            List<CompletableFuture<WorkflowBench.Started>> started = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger accepted = new AtomicInteger();
            String id = workflow;
            out.println(label + ": " + options.jobsAt(run.concurrency()) + " no-op jobs of tenant "
                    + LimitsBench.TENANT + ", 10% keyed, 10% labelled, a " + RUN_NODES + "-node workflow run per "
                    + JOBS_PER_RUN + "...");
            WorkloadResult burst = jobs.burst(run, i -> control(i, stamp), job -> {
                if (accepted.incrementAndGet() % JOBS_PER_RUN == 0) {
                    started.add(WorkflowBench.start(api, id));
                }
            });
            List<String> runs = awaitRuns(label, List.copyOf(started), notes);
            int runsAccepted = (int) runs.stream().filter(s -> !REFUSED.equals(s)).count();
            Map<UUID, UUID> repeats = repeat(burst.jobs());
            Map<UUID, Boolean> labelled = new LinkedHashMap<>();
            burst.jobs().stream().filter(j -> j.control().label() != null)
                    .forEach(j -> labelled.put(j.jobId(), j.completed()));
            if (filtered) {
                awaitHooks(label, receiver, labelled);
            }
            List<UUID> deliveries = receiver.deliveries().stream().map(NotifyEndpoint.Delivery::jobId).toList();
            MixedFeatures figures = MixedFeatures.of(repeats, labelled, filtered, deliveries,
                    runs.stream().map(s -> REFUSED.equals(s) ? null : s).toList(), runsAccepted, RUN_NODES);
            notes.add(0, method(run.concurrency()));
            if (!burst.note().isEmpty()) {
                notes.add(1, burst.note());
            }
            return burst.withMixed(figures, String.join("; ", notes));
        } finally {
            remove(api, subscription, workflow);
            if (limited) {
                String removal = limits.remove(label);
                if (removal != null) {
                    out.println(label + ": " + removal);
                }
            }
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** Deletes the subscription (none when null) and the workflow through {@code client}. */
    private static void remove(ApiClient client, String subscription, String workflow) {
        if (subscription != null) {
            client.send(HttpMethod.DELETE, "/api/subscriptions/" + subscription, null).join();
        }
        WorkflowBench.delete(client, List.of(workflow));
    }

    /** The workload's method in one note. */
    String method(int concurrency) {
        return String.format(Locale.ROOT, "%d no-op jobs, %d in flight, all of tenant %s under maxRunning %d (does "
                        + "not bind); every 10th with an Idempotency-Key (each sent again after the run: same job "
                        + "expected), every 10th (another) labelled %s:%s, which a jobType subscription to COMPLETED "
                        + "filters on; one run of a %d-node fan-out workflow per %d accepted jobs; jobs/s over the "
                        + "plain jobs only", options.jobsAt(concurrency), concurrency, LimitsBench.TENANT,
                options.limitsBurst(), LABEL_KEY, LABEL_VALUE, RUN_NODES, JOBS_PER_RUN);
    }

    /** A run request not answered 202 with a run id. */
    private static final String REFUSED = "";

    /**
     * Reads every started run until it ended, or {@link BenchOptions#timeout} passed without one ending; returns each
     * run's last status ({@link #REFUSED} when it was not accepted, null when never read).
     */
    private List<String> awaitRuns(String label, List<CompletableFuture<WorkflowBench.Started>> started,
                                   List<String> notes) {
        Map<UUID, String> status = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        for (CompletableFuture<WorkflowBench.Started> f : started) {
            WorkflowBench.Started s = f.join();
            if (s.runId() == null) {
                if (refused.isEmpty()) {
                    notes.add("first workflow run not answered 202 with a runId: " + s.refusal());
                }
                refused.add(REFUSED);
            } else {
                status.put(s.runId(), null);
            }
        }
        out.println(label + ": waiting for " + status.size() + " workflow runs...");
        long lastChange = System.nanoTime();
        while (status.values().stream().anyMatch(s -> s == null || !WorkflowRuns.RUN_ENDED.contains(s))) {
            for (Map.Entry<UUID, String> e : status.entrySet()) {
                if (e.getValue() == null || !WorkflowRuns.RUN_ENDED.contains(e.getValue())) {
                    WorkflowBench.RunState state = WorkflowBench.read(api, e.getKey());
                    if (state != null && state.ended()) {
                        e.setValue(state.status());
                        lastChange = System.nanoTime();
                    } else if (state != null) {
                        e.setValue(state.status());
                    }
                }
            }
            if (System.nanoTime() - lastChange > options.timeout().toNanos()) {
                notes.add("workflow runs had not ended " + options.timeout().toSeconds() + " s after the last one did");
                break;
            }
            sleep(POLL_MS);
        }
        List<String> all = new ArrayList<>(status.values());
        all.addAll(refused);
        return all;
    }

    /** Sends each keyed job again with its key and body; returns per job the job id the repeat was answered with. */
    private Map<UUID, UUID> repeat(List<JobRecord> records) {
        Map<UUID, CompletableFuture<ApiClient.Answer>> answers = new LinkedHashMap<>();
        records.stream().filter(r -> r.control().idempotencyKey() != null).forEach(r -> answers.put(r.jobId(),
                api.submit(r.control().body(r.kind()), r.control().idempotencyKey())));
        Map<UUID, UUID> repeats = new HashMap<>();
        answers.forEach((id, answer) -> {
            ApiClient.Answer a = answer.join();
            repeats.put(id, a.accepted() ? a.jobId() : null);
        });
        return repeats;
    }

    /** Waits until every labelled COMPLETED job has a webhook, or {@link #HOOK_QUIET} passed without one arriving. */
    private void awaitHooks(String label, NotifyEndpoint receiver, Map<UUID, Boolean> labelled) {
        List<UUID> expected = labelled.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey)
                .toList();
        out.println(label + ": waiting for the webhooks of " + expected.size() + " labelled jobs...");
        int seen = -1;
        long lastChange = System.nanoTime();
        while (!expected.stream().allMatch(receiver::received)) {
            int now = receiver.jobsReceived();
            if (now != seen) {
                seen = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > HOOK_QUIET.toNanos()) {
                return;
            }
            sleep(POLL_MS);
        }
    }
}
