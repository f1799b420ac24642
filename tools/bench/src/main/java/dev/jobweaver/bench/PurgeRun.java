package dev.jobweaver.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the purge workload measured: how long seeding {@code seeded} finished jobs took, how long each database took to
 * lose them once their tenant's retention was set to {@link #RETENTION}, and whether anything else was lost. The steady
 * run's latency during the purge is the {@link WorkloadResult}'s own ({@code toStart}).
 *
 * @param tenant the seeded tenant
 * @param seeded jobs seeded into each database
 * @param seedSeconds the seed's inserts and ANALYZE, both databases, wall time
 * @param api the purge as the API's {@code jobs} saw it
 * @param scheduler the purge as the scheduler's {@code job_executions} saw it
 * @param attemptsLeft seeded jobs' {@code job_attempts} rows left after the purge; -1 when not read
 * @param others the other tenants' rows that no retention could make due, before and after
 * @param samples the seeded rows left in each database, every {@link #SAMPLE_EVERY}
 * @param cap how long the workload waited for the purge at most
 */
record PurgeRun(String tenant, long seeded, double seedSeconds, Database api, Database scheduler, long attemptsLeft,
                Others others, List<Sample> samples, Duration cap) {

    /** The seeded tenant's retention, both periods: the shortest the API takes. */
    static final String RETENTION = "PT10S";

    /** How often the rows left are counted. The scheduler's count scans its table, so not more often. */
    static final Duration SAMPLE_EVERY = Duration.ofSeconds(5);

    /** The least wait for the purge. */
    static final Duration MIN_CAP = Duration.ofMinutes(10);

    /** The rate below which the wait gives up: far below what the default settings allow (about 667 jobs/s). */
    static final double CAP_RATE = 250;

    /**
     * One database's purge.
     *
     * @param name {@code jobweaver_api.jobs} or {@code jobweaver_scheduler.job_executions}
     * @param left seeded rows left when the workload stopped waiting
     * @param seconds from the retention's 200 to the first sample that found none left; NaN when some were left
     */
    record Database(String name, long left, double seconds) {

        /** Whether every seeded row went. */
        boolean done() {
            return left == 0 && !Double.isNaN(seconds);
        }

        /** Seeded rows per second of {@link #seconds}; NaN when not done. */
        double rate(long seeded) {
            return done() && seconds > 0 ? seeded / seconds : Double.NaN;
        }
    }

    /** The seeded rows left in each database {@code atSeconds} after the retention's 200. */
    record Sample(double atSeconds, long apiLeft, long schedulerLeft) {
    }

    /**
     * Rows of other tenants that no retention could make due ({@link PurgeSeed#API_OTHERS}), before the purge and
     * after.
     */
    record Others(long apiBefore, long apiAfter, long schedulerBefore, long schedulerAfter) {

        /** How many of them went: each a job the purge must not have touched. */
        long purged() {
            return Math.max(0, apiBefore - apiAfter) + Math.max(0, schedulerBefore - schedulerAfter);
        }
    }

    /** How long to wait for {@code jobs} to go: {@link #MIN_CAP}, or longer at {@link #CAP_RATE}. */
    static Duration cap(long jobs) {
        Duration atRate = Duration.ofSeconds((long) Math.ceil(jobs / CAP_RATE));
        return atRate.compareTo(MIN_CAP) > 0 ? atRate : MIN_CAP;
    }

    /** The database that finished last, or the one with rows left. */
    Database slower() {
        if (!api.done() || !scheduler.done()) {
            return !api.done() ? api : scheduler;
        }
        return api.seconds() >= scheduler.seconds() ? api : scheduler;
    }

    /** Whether both databases lost every seeded row. */
    boolean done() {
        return api.done() && scheduler.done();
    }

    /** Whether the purge removed anything at all while the workload waited. */
    boolean started() {
        return api.left() < seeded || scheduler.left() < seeded;
    }

    /**
     * The purge's share of correctness: every row of another tenant the purge removed counts as unexpected. The steady
     * jobs are judged by {@link Correctness#check} as any run's.
     */
    Correctness correctness() {
        long purged = others.purged();
        if (purged == 0) {
            return new Correctness(0, 0, 0, 0, 0, List.of());
        }
        return new Correctness(0, 0, 0, 0, (int) Math.min(Integer.MAX_VALUE, purged), List.of(purged
                + " rows of other tenants gone during the purge (jobs " + others.apiBefore() + " -> "
                + others.apiAfter() + ", job_executions " + others.schedulerBefore() + " -> "
                + others.schedulerAfter() + ")"));
    }

    /** One line per database: {@code jobweaver_api.jobs: 1,000,000 gone in 1500 s, 667 jobs/s}. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("seeded " + seeded + " COMPLETED jobs of tenant " + tenant + " into each database in "
                + Targets.fmt(seedSeconds) + " s (inserts and ANALYZE)");
        for (Database db : List.of(api, scheduler)) {
            lines.add(db.name() + ": " + (db.done()
                    ? seeded + " gone in " + Targets.fmt(db.seconds()) + " s, " + Targets.fmt(db.rate(seeded))
                            + " jobs/s"
                    : db.left() + " of " + seeded + " LEFT after " + cap.toSeconds() + " s"));
        }
        return lines;
    }

    /** The target row: the steady run's p99 submit-to-start during the purge, judged at the target's rate only. */
    static TargetRow target(WorkloadResult run, double rate) {
        String goal = "p99 submit-to-start < " + Targets.fmt(Targets.STEADY_P99_START_MS) + " ms at "
                + Targets.fmt(Targets.STEADY_RATE) + "/s during the purge";
        String name = "submit-to-start during the purge";
        if (run == null || !run.available() || run.purge() == null) {
            return TargetRow.notMeasured(name, goal, run == null ? "purge not run" : "purge unavailable (see Notes)");
        }
        PurgeRun p = run.purge();
        String measured = "p99 " + Targets.fmt(run.toStart().p99()) + " ms (p50 " + Targets.fmt(run.toStart().p50())
                + ") over " + run.toStart().count() + " jobs at " + Targets.fmt(rate) + "/s, purge of " + p.seeded()
                + " jobs " + (p.done() ? "in " + Targets.fmt(p.slower().seconds()) + " s"
                : "unfinished after " + p.cap().toSeconds() + " s");
        if (!p.started()) {
            return TargetRow.notMeasured(name, goal, measured + ": the purge removed nothing");
        }
        if (rate != Targets.STEADY_RATE || run.toStart().count() == 0) {
            return TargetRow.notMeasured(name, goal, measured);
        }
        return TargetRow.of(name, goal, measured, run.toStart().p99() < Targets.STEADY_P99_START_MS);
    }
}
