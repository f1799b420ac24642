package dev.jobweaver.bench;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The benchmark's workloads, in the order they run (burst first: sleepers and priorities compare themselves with it).
 */
public enum Workload {
    /** N no-op jobs as fast as the API takes them. */
    BURST(true),
    /** A fixed offered rate for a duration, open loop. */
    STEADY(true),
    /** Like burst, with 5% of the jobs sleeping 5 s. */
    SLEEPERS(true),
    /** Like burst, with 10% of the jobs failing their first attempt. */
    RETRIES(true),
    /** Like burst, every job with a priority: 60% HIGH, 30% NORMAL, 10% LOW. */
    PRIORITIES(false),
    /** No-op jobs at a modest rate, each with a delay of a few seconds: how late they start. */
    DELAYED(false),
    /** The platform's idle CPU without and with a million future jobs in the scheduler's table. */
    DELAYED_IDLE(false),
    /** Waiting and running jobs cancelled: how soon the cancel shows in the API and stops the worker's run. */
    CANCEL(false),
    /** No-op jobs each subscribed to COMPLETED: how soon its signed webhook reaches a receiver in the bench. */
    NOTIFY(false),
    /** Interval schedules ticking every minute: every tick one job, how late, and what they cost the scheduler. */
    SCHEDULES(false),
    /** A 100-node fan-out run one run at a time, and many runs of a 5-node diamond at once. */
    WORKFLOW(false),
    /**
     * The burst's jobs under a tenant limit that does not bind (the cost of the limited claim), then sleeping jobs
     * under one that does: never more running than the limit, and how near its ideal rate.
     */
    LIMITS(false),
    /**
     * The burst's no-op jobs with features in use: idempotency keys, a label a subscription filters on, a tenant limit
     * that does not bind, a 10-node workflow run per 100 jobs.
     */
    MIXED(false),
    /**
     * The burst's no-op jobs sent alternately to queue {@code default} and to queue {@code bench}, which a worker pool
     * of its own serves: jobs/s against the plain burst, and whether every run stayed in its queue's pool.
     */
    QUEUES(false),
    /**
     * Finished jobs of a tenant of its own seeded straight into the API's and the scheduler's databases, then purged
     * by their retention while the steady load runs: how long the purge takes, and the steady jobs' submit-to-start
     * meanwhile.
     */
    PURGE(false);

    private final boolean byDefault;

    Workload(boolean byDefault) {
        this.byDefault = byDefault;
    }

    /** The name on the command line and in file names: the constant's, in lower case, with a hyphen for '_'. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The workloads `./jobweaver bench` runs when none is named: burst, steady, sleepers and retries. The job-control
     * ones add a minute or more each and are asked for by name.
     */
    public static Set<Workload> defaults() {
        Set<Workload> all = EnumSet.noneOf(Workload.class);
        Arrays.stream(values()).filter(w -> w.byDefault).forEach(all::add);
        return all;
    }

    /** The workload called {@code name}, or an {@link IllegalArgumentException} listing the valid names. */
    public static Workload named(String name) {
        return Arrays.stream(values()).filter(w -> w.cliName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown workload '" + name + "'; valid: "
                        + Arrays.stream(values()).map(Workload::cliName).collect(Collectors.joining(", "))));
    }
}
