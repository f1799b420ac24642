package dev.jobweaver.bench;

import static dev.jobweaver.bench.ApiText.shorten;
import static dev.jobweaver.bench.ApiText.sleep;

import io.vertx.core.http.HttpMethod;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The limits workload's part of {@link WorkloadRunner}: gives tenant {@value #TENANT} a limit that does not bind and
 * runs the burst's jobs under it, then one that binds and runs sleeping jobs under it, and removes the limit, also when
 * the workload fails.
 */
final class LimitsBench {

    /** The tenant every job of the workload is sent with. */
    static final String TENANT = "bench-limited";

    /** Period of the reads of the scheduler's copy of the limit, milliseconds. */
    static final long LIMIT_POLL_MS = 20;

    /** How long the bench waits after the API stored a limit when it cannot read the scheduler's copy. */
    static final Duration BLIND_WAIT = Duration.ofSeconds(2);

    /** How long the bench waits for the scheduler to drop the limit once its removal is stored. */
    static final Duration REMOVAL_WAIT = Duration.ofSeconds(10);

    private final BenchOptions options;
    private final ApiClient api;
    private final Jobs jobs;
    private final PrintStream out;

    /** Where the workload sends and reads its jobs and the scheduler's copy of a limit: the runner, or a test's. */
    interface Jobs {

        /** The jobs of {@code run} sent as the plain burst's, each with {@code control}, and their figures. */
        WorkloadResult burst(BenchOptions.Run run, Control control);

        /** {@code count} jobs of {@code kind} with {@code control}, {@code concurrency} in flight, not measured. */
        Batch send(String label, int count, int concurrency, JobKind kind, Control control);

        /**
         * The {@code max_running} the scheduler holds for {@code tenant} ({@code jobweaver_scheduler.tenant_limits}),
         * null when it holds none; an {@link IllegalStateException} when its table cannot be read.
         */
        Integer schedulerLimit(String tenant);
    }

    /** Jobs sent and how the platform recorded them once they ended (or the bench stopped waiting). */
    record Batch(Submission submission, List<JobRecord> jobs) {
    }

    /** The workload against {@code api}, its jobs through {@code jobs}, progress on {@code out}. */
    LimitsBench(BenchOptions options, ApiClient api, Jobs jobs, PrintStream out) {
        this.options = options;
        this.api = api;
        this.jobs = jobs;
        this.out = out;
    }

    /** {@code /api/tenants/{tenant}/limits} of {@link #TENANT}. */
    static String path() {
        return "/api/tenants/" + TENANT + "/limits";
    }

    /** The body of a {@code PUT} of {@code maxRunning}. */
    static String body(int maxRunning) {
        return "{\"maxRunning\":" + maxRunning + "}";
    }

    /** Does the workload: the first limit (its answer is the probe), the burst, the second limit, its jobs, removal. */
    WorkloadResult run(BenchOptions.Run run) {
        String label = run.label();
        out.println(label + ": PUT " + path() + " " + body(options.limitsBurst()) + "...");
        ApiClient.Answer set = api.send(HttpMethod.PUT, path(), body(options.limitsBurst())).join();
        if (set.status() == 404 || set.status() == 405) {
            return WorkloadResult.unavailable(run, "the API answers " + set.status() + " to PUT "
                    + "/api/tenants/{tenant}/limits (" + shorten(set.body()) + "); the platform does not support "
                    + "tenant limits");
        }
        if (set.status() != 200) {
            // nothing is stored after a refusal, but a request that did not get its answer may have been
            remove(label);
            return WorkloadResult.unavailable(run, "the limit " + body(options.limitsBurst()) + " was answered "
                    + set.status() + " " + shorten(set.body()) + ", not 200");
        }
        List<String> notes = new ArrayList<>();
        Thread cleanup = Thread.ofPlatform().unstarted(() -> {
            try (ApiClient client = api.another()) {
                client.send(HttpMethod.DELETE, path(), null).join();
            } catch (RuntimeException e) {
                System.err.println("bench: could not remove the limit of tenant " + TENANT + " (DELETE " + path()
                        + "): " + e.getMessage());
            }
        });
        // a bench stopped with Ctrl-C must not leave the platform claiming under a limit
        Runtime.getRuntime().addShutdownHook(cleanup);
        WorkloadResult burst;
        TenantLimits figures;
        String removal;
        try {
            long freeMs = awaitScheduler(label, options.limitsBurst(), options.timeout(), notes);
            out.println(label + ": " + options.jobsAt(run.concurrency()) + " no-op jobs of tenant " + TENANT
                    + " under maxRunning " + options.limitsBurst() + "...");
            burst = jobs.burst(run, Control.tenant(TENANT));
            out.println(label + ": PUT " + path() + " " + body(options.limitsBinding()) + "...");
            ApiClient.Answer binding = api.send(HttpMethod.PUT, path(), body(options.limitsBinding())).join();
            if (binding.status() != 200) {
                throw new IllegalStateException("the limit " + body(options.limitsBinding()) + " was answered "
                        + binding.status() + " " + shorten(binding.body()) + ", not 200");
            }
            long bindingMs = awaitScheduler(label, options.limitsBinding(), options.timeout(), notes);
            out.println(label + ": " + options.limitsJobs() + " jobs sleeping " + JobKind.SHORT_SLEEP_MS
                    + " ms under maxRunning " + options.limitsBinding() + "...");
            Batch batch = jobs.send(label + " binding", options.limitsJobs(), run.concurrency(),
                    JobKind.SHORT_SLEEPER, Control.tenant(TENANT));
            figures = TenantLimits.of(TENANT, options.limitsBurst(), options.limitsBinding(),
                    JobKind.SHORT_SLEEP_MS, batch.submission().rejected(), batch.jobs());
            if (freeMs >= 0 && bindingMs >= 0) {
                notes.add("the scheduler held each limit " + freeMs + " and " + bindingMs + " ms after the API's "
                        + "200 (read every " + LIMIT_POLL_MS + " ms)");
            }
            if (batch.submission().firstRejection() != null) {
                notes.add("first job under the binding limit not accepted: " + batch.submission().firstRejection());
            }
        } finally {
            removal = remove(label);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        if (removal != null) {
            notes.add(removal);
        }
        if (figures.exceeded()) {
            out.println(label + ": " + figures.maxRunning() + " jobs of tenant " + TENANT + " ran at once under "
                    + "maxRunning " + options.limitsBinding());
        }
        notes.add(0, method(run.concurrency()));
        if (!burst.note().isEmpty()) {
            notes.add(1, burst.note());
        }
        return burst.withLimits(figures, String.join("; ", notes));
    }

    /** The workload's method in one note. */
    String method(int concurrency) {
        return String.format(Locale.ROOT, "every job sent with tenant %s; burst: %d no-op jobs, %d in flight, under "
                        + "maxRunning %d, which does not bind but puts every claim under the limits' lock and "
                        + "dispatches none of the tenant's jobs at ingestion; binding: %d jobs sleeping %d ms under "
                        + "maxRunning %d, each running from execution_attempts.started_at to jobs.finished_at, jobs/s "
                        + "from the first start to the last finish against maxRunning / sleep; each limit waited for "
                        + "in jobweaver_scheduler.tenant_limits before the jobs, and removed after", TENANT,
                options.jobsAt(concurrency), concurrency, options.limitsBurst(), options.limitsJobs(),
                JobKind.SHORT_SLEEP_MS, options.limitsBinding());
    }

    /**
     * Waits until the scheduler holds {@code expected} for {@link #TENANT} (null: no limit), at most {@code wait};
     * returns after how many milliseconds it did, or -1 with a note when it did not or could not be read.
     */
    long awaitScheduler(String label, Integer expected, Duration wait, List<String> notes) {
        long t0 = System.nanoTime();
        Integer held;
        while (true) {
            try {
                held = jobs.schedulerLimit(TENANT);
            } catch (IllegalStateException e) {
                notes.add("the scheduler's copy of the limit could not be read (" + e.getMessage() + "), so the bench "
                        + "waited " + BLIND_WAIT.toSeconds() + " s after the API stored it");
                sleep(BLIND_WAIT.toMillis());
                return -1;
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            if (Objects.equals(held, expected)) {
                return ms;
            }
            if (ms > wait.toMillis()) {
                notes.add("the scheduler did not hold " + (expected == null ? "the removal" : "maxRunning " + expected)
                        + " of tenant " + TENANT + " within " + (wait.toMillis() % 1000 == 0 ? wait.toSeconds()
                        + " s" : wait.toMillis() + " ms") + " of the API's answer (it held "
                        + (held == null ? "none" : held) + ")");
                out.println(label + ": the scheduler still holds maxRunning " + held + " for tenant " + TENANT);
                return -1;
            }
            sleep(LIMIT_POLL_MS);
        }
    }

    /** Removes the limit and waits for the scheduler to drop it; returns what went wrong, or null. */
    String remove(String label) {
        ApiClient.Answer removed = api.send(HttpMethod.DELETE, path(), null).join();
        if (removed.status() != 204) {
            return "the limit's removal was answered " + removed.status() + " " + shorten(removed.body()) + ", not "
                    + "204: remove it by hand (DELETE " + path() + ")";
        }
        List<String> notes = new ArrayList<>();
        awaitScheduler(label, null, REMOVAL_WAIT, notes);
        return notes.isEmpty() ? null : String.join("; ", notes);
    }
}
