package dev.jobweaver.bench;

import static dev.jobweaver.bench.ApiText.shorten;
import static dev.jobweaver.bench.ApiText.sleep;

import io.vertx.core.http.HttpMethod;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The purge workload's part of {@link WorkloadRunner}: seeds {@link BenchOptions#purgeJobs} finished jobs of a tenant
 * of its own into the API's and the scheduler's databases ({@link PurgeSeed}), sets that tenant's retention to
 * {@link PurgeRun#RETENTION} through the API, and offers the steady load (of the default tenant, whose jobs no
 * retention reaches meanwhile) until the seeded jobs are gone from both databases or {@link PurgeRun#cap} has passed.
 *
 * <p>Measured: the seed's wall time; per database, from the retention's 200 to the first count that found no seeded
 * row ({@link PurgeRun#SAMPLE_EVERY} apart, so up to that much late); the steady jobs' submit-to-start meanwhile, as
 * the steady workload measures it. Checked: every steady job ran once (as any run's), no row of another tenant that no
 * retention could make due went.
 */
final class PurgeBench {

    private final BenchOptions options;
    private final ApiClient api;
    private final Jobs jobs;
    private final int postgresPort;
    private final PrintStream out;

    /** Where the workload offers its steady load: the runner. */
    interface Jobs {

        /** The steady workload's unreported warm-up ({@link BenchOptions#settle}). */
        void warmUp();

        /**
         * The steady load of {@code run} at {@link BenchOptions#rate}, offered until {@code stop} answers true or
         * {@code cap} has passed, and its figures once its jobs ended.
         */
        WorkloadResult steadyUntil(BenchOptions.Run run, BooleanSupplier stop, Duration cap);
    }

    /** The workload against {@code api} and the PostgreSQL on {@code postgresPort}, progress on {@code out}. */
    PurgeBench(BenchOptions options, ApiClient api, Jobs jobs, int postgresPort, PrintStream out) {
        this.options = options;
        this.api = api;
        this.jobs = jobs;
        this.postgresPort = postgresPort;
        this.out = out;
    }

    /** {@code /api/tenants/{tenant}/retention}. */
    static String path(String tenant) {
        return "/api/tenants/" + tenant + "/retention";
    }

    /** The body of the {@code PUT} that makes every finished job of the tenant due after {@link PurgeRun#RETENTION}. */
    static String body() {
        return "{\"completedAfter\":\"" + PurgeRun.RETENTION + "\",\"failedAfter\":\"" + PurgeRun.RETENTION + "\"}";
    }

    /** Does the workload: probe, seed, retention, steady load while the purge runs, checks. */
    WorkloadResult run(BenchOptions.Run run) {
        String label = run.label();
        String tenant = PurgeSeed.tenant(Long.toString(System.currentTimeMillis(), 36));
        long count = options.purgeJobs();
        out.println(label + ": probing GET " + path(tenant) + "...");
        ApiClient.Answer probe = api.send(HttpMethod.GET, path(tenant), null).join();
        if (probe.status() != 200) {
            return WorkloadResult.unavailable(run, "the API answers " + probe.status() + " to GET " + path(tenant)
                    + " (" + shorten(probe.body()) + "); the platform has no retention");
        }
        try (PurgeDb db = new PurgeDb(postgresPort)) {
            Instant start = Instant.now();
            // a day back: inside every default retention, so no purge may touch these rows while the workload runs
            Instant finishedAfter = start.minus(Duration.ofDays(1));
            long[] othersBefore = db.others(tenant, finishedAfter, start);
            out.println(label + ": seeding " + count + " COMPLETED jobs of tenant " + tenant + " into jobweaver_api and"
                    + " jobweaver_scheduler, " + PurgeSeed.CHUNK + " a transaction...");
            long t0 = System.nanoTime();
            db.seed(tenant, count, done -> out.println(label + ": seeded " + done + " of " + count));
            double seedSeconds = (System.nanoTime() - t0) / 1e9;
            jobs.warmUp();
            out.println(label + ": PUT " + path(tenant) + " " + body() + "...");
            ApiClient.Answer set = api.send(HttpMethod.PUT, path(tenant), body()).join();
            if (set.status() != 200) {
                return WorkloadResult.unavailable(run, "the retention was answered " + set.status() + " "
                        + shorten(set.body()) + ", not 200; the " + count + " seeded jobs of tenant " + tenant
                        + " stay until the default retention");
            }
            Duration cap = PurgeRun.cap(count);
            Sampler sampler = new Sampler(db, tenant, count, cap, System.nanoTime(), label);
            Thread thread = Thread.ofPlatform().name("bench-purge-sampler").start(sampler);
            WorkloadResult steady = jobs.steadyUntil(run, sampler.finished::get, cap);
            // the steady run ends only once the sampler said stop, or at the cap, which the sampler keeps as well
            sampler.finished.set(true);
            joinQuietly(thread);
            long[] othersAfter = db.others(tenant, finishedAfter, start);
            long attemptsLeft = sampler.apiGone.get() == null ? -1 : db.attemptsLeft(tenant, count);
            PurgeRun figures = new PurgeRun(tenant, count, seedSeconds,
                    new PurgeRun.Database("jobweaver_api.jobs", sampler.apiLeft(), seconds(sampler.apiGone.get())),
                    new PurgeRun.Database("jobweaver_scheduler.job_executions", sampler.schedulerLeft(),
                            seconds(sampler.schedulerGone.get())),
                    attemptsLeft, new PurgeRun.Others(othersBefore[0], othersAfter[0], othersBefore[1],
                    othersAfter[1]), List.copyOf(sampler.samples), cap);
            return steady.withPurge(figures, note(steady.note(), figures, sampler.problem.get()));
        }
    }

    private static double seconds(Double value) {
        return value == null ? Double.NaN : value;
    }

    /** The steady run's note, then what the purge workload did and found. */
    private String note(String steadyNote, PurgeRun figures, String samplerProblem) {
        List<String> notes = new ArrayList<>();
        notes.add(String.format(Locale.ROOT, "%d COMPLETED no-op jobs of tenant %s, finished %d min ago, inserted "
                        + "into jobweaver_api.jobs (with one job_attempts row each) and "
                        + "jobweaver_scheduler.job_executions with INSERT ... SELECT generate_series, %d rows a "
                        + "transaction, then ANALYZE; retention %s for both statuses; the steady load of the default "
                        + "tenant offered until both databases had none left (counted every %d s, so a purge time is "
                        + "up to that late) or %d s", figures.seeded(), figures.tenant(),
                PurgeSeed.FINISHED_AGO.toMinutes(), PurgeSeed.CHUNK, PurgeRun.RETENTION,
                PurgeRun.SAMPLE_EVERY.toSeconds(), figures.cap().toSeconds()));
        notes.addAll(figures.lines());
        if (figures.attemptsLeft() > 0) {
            notes.add(figures.attemptsLeft() + " job_attempts rows of purged jobs left behind");
        }
        if (!steadyNote.isEmpty()) {
            notes.add(steadyNote);
        }
        WorkloadRunner.noteProblem(notes, "the counts of seeded rows stopped", samplerProblem);
        return String.join("; ", notes);
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Counts the seeded rows left in each database every {@link PurgeRun#SAMPLE_EVERY} from {@code t0} (the
     * retention's 200) until none is left in either, the cap has passed or it is told to stop ({@link #finished}).
     */
    private final class Sampler implements Runnable {

        final AtomicBoolean finished = new AtomicBoolean();
        final AtomicReference<Double> apiGone = new AtomicReference<>();
        final AtomicReference<Double> schedulerGone = new AtomicReference<>();
        final AtomicReference<String> problem = new AtomicReference<>();
        final List<PurgeRun.Sample> samples = Collections.synchronizedList(new ArrayList<>());
        private final PurgeDb db;
        private final String tenant;
        private final long seeded;
        private final Duration cap;
        private final long t0;
        private final String label;
        private volatile long apiLeft;
        private volatile long schedulerLeft;

        Sampler(PurgeDb db, String tenant, long seeded, Duration cap, long t0, String label) {
            this.db = db;
            this.tenant = tenant;
            this.seeded = seeded;
            this.cap = cap;
            this.t0 = t0;
            this.label = label;
            this.apiLeft = seeded;
            this.schedulerLeft = seeded;
        }

        long apiLeft() {
            return apiLeft;
        }

        long schedulerLeft() {
            return schedulerLeft;
        }

        @Override
        public void run() {
            try {
                while (!finished.get()) {
                    sleep(PurgeRun.SAMPLE_EVERY.toMillis());
                    double at = (System.nanoTime() - t0) / 1e9;
                    if (apiGone.get() == null) {
                        apiLeft = db.apiLeft(tenant);
                    }
                    if (schedulerGone.get() == null) {
                        schedulerLeft = db.schedulerLeft(tenant);
                    }
                    samples.add(new PurgeRun.Sample(at, apiLeft, schedulerLeft));
                    if (apiLeft == 0) {
                        apiGone.compareAndSet(null, at);
                    }
                    if (schedulerLeft == 0) {
                        schedulerGone.compareAndSet(null, at);
                    }
                    out.println(String.format(Locale.ROOT, "%s: %.0f s: %d of %d seeded jobs left in the API, %d in "
                            + "the scheduler", label, at, apiLeft, seeded, schedulerLeft));
                    if (apiLeft == 0 && schedulerLeft == 0 || at >= cap.toSeconds()) {
                        break;
                    }
                }
            } catch (RuntimeException e) {
                problem.set(e.getMessage());
            } finally {
                finished.set(true);
            }
        }
    }
}
