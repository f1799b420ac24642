package dev.jobweaver.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.ToDoubleFunction;

/**
 * What the cancel workload measured, per group of jobs: from the 202 of {@code POST /api/jobs/{id}/cancel} reaching
 * the bench until the scheduler held the job CANCELLED, until the API showed it so, and, for running jobs, until the
 * worker's run stopped; and what did not go as a cancel must.
 *
 * @param groups one per group that had jobs, waiting first
 */
public record Cancels(List<Group> groups) {

    /** Cancels in flight at most, one connection each. */
    public static final int CONCURRENCY = 16;

    /** The delay of the waiting jobs: far beyond the workload's own cancels, so none is due before its cancel. */
    public static final long WAITING_DELAY_MS = 60_000;

    /**
     * Running jobs started and cancelled together at most: the worker's runs in flight
     * ({@code jobweaver.worker.max-in-flight}, 1000 by default). A larger group runs in waves of this size, so that
     * every job of a wave is running, none waiting for a slot, when it is cancelled.
     */
    public static final int WORKER_RUNS = 1_000;

    /** What the worker's error message of an interrupted attempt contains. */
    public static final String WORKER_CANCELLED = "WORKER.CANCELLED";

    /** No cancel workload. */
    public static final Cancels NONE = new Cancels(List.of());

    /** The two groups. */
    public enum Kind {
        /** Submitted with {@link #WAITING_DELAY_MS} and cancelled right after acceptance: must never run. */
        WAITING("waiting"),
        /** A 30 s sleep without retries, cancelled once the worker runs it: must be interrupted. */
        RUNNING("running");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        /** How the reports name the group. */
        public String label() {
            return label;
        }
    }

    /**
     * One cancelled job as the bench and the platform saw it.
     *
     * @param jobId its id
     * @param kind its group
     * @param answer the status the cancel was answered with (0: no answer)
     * @param answerMs how long the answer took, from sending the request to the whole answer; NaN without one
     * @param acceptedAt when that answer reached the bench (this machine's clock, as the platform's)
     * @param schedulerAt {@code jobweaver_scheduler.job_executions.finished_at} of the CANCELLED job; null when the
     *                    scheduler does not hold it CANCELLED
     * @param visibleAt when the bench's lookup of {@code jobweaver_api.jobs}, every {@value FreshnessProbe#POLL_MS}
     *                  ms, first found it CANCELLED; null when it never did
     * @param status {@code jobweaver_api.jobs.status} at the end; null without a row
     * @param executions its {@code execution_attempts} rows; -1 when they could not be read
     * @param attemptFinishedAt {@code finished_at} of its latest attempt: for an interrupted run, the interrupt
     * @param attemptError that attempt's {@code error_message}
     */
    public record Job(UUID jobId, Kind kind, int answer, double answerMs, Instant acceptedAt, Instant schedulerAt,
                      Instant visibleAt, String status, int executions, Instant attemptFinishedAt, String attemptError) {

        /** Whether the cancel was answered 202. */
        public boolean accepted() {
            return answer == 202;
        }

        /** Whether the API shows the job CANCELLED. */
        public boolean cancelled() {
            return "CANCELLED".equals(status);
        }

        /** Whether the worker recorded a run of it. */
        public boolean ran() {
            return executions > 0;
        }

        /** Whether its latest attempt ended by a cancel ({@link #WORKER_CANCELLED}). */
        public boolean interrupted() {
            return attemptError != null && attemptError.contains(WORKER_CANCELLED);
        }

        /** Milliseconds from the accepted cancel to CANCELLED in the scheduler; NaN without either. */
        public double toSchedulerMs() {
            return accepted() ? JobRecord.millisBetween(acceptedAt, schedulerAt) : Double.NaN;
        }

        /** Milliseconds from the accepted cancel to CANCELLED visible in the API; NaN without either. */
        public double toVisibleMs() {
            return accepted() ? JobRecord.millisBetween(acceptedAt, visibleAt) : Double.NaN;
        }

        /** Milliseconds from the accepted cancel to the interrupt of the run; NaN unless it was interrupted. */
        public double toInterruptMs() {
            return accepted() && interrupted() ? JobRecord.millisBetween(acceptedAt, attemptFinishedAt) : Double.NaN;
        }

        /** What went wrong with this cancel, or null when it went as it must. */
        String problem() {
            List<String> wrong = new ArrayList<>();
            if (!accepted()) {
                wrong.add("cancel answered " + answer);
            }
            if (!cancelled()) {
                wrong.add(status == null ? "no row in jobweaver_api.jobs" : "ended " + status + ", not CANCELLED");
            }
            if (kind == Kind.WAITING && ran()) {
                wrong.add("ran " + executions + " time(s) though cancelled while waiting");
            }
            if (kind == Kind.RUNNING && !interrupted()) {
                wrong.add(executions == 0 ? "never ran"
                        : "its attempt did not end " + WORKER_CANCELLED + " (" + attemptError + ")");
            }
            if (kind == Kind.RUNNING && executions > 1) {
                wrong.add("executed " + executions + " times, expected 1");
            }
            return wrong.isEmpty() ? null : String.join("; ", wrong);
        }
    }

    /**
     * One group's figures.
     *
     * @param kind which
     * @param jobs jobs of the group the API accepted (and the bench then cancelled)
     * @param notAccepted cancels not answered 202
     * @param notCancelled jobs the API does not show CANCELLED at the end
     * @param ran waiting jobs with any {@code execution_attempts} row; -1 for the running group
     * @param notInterrupted running jobs whose latest attempt did not end {@link #WORKER_CANCELLED}; -1 for the
     *                       waiting group
     * @param answer milliseconds {@code POST /api/jobs/{id}/cancel} took to answer 202: the API answers once Kafka has
     *               acknowledged the command
     * @param toScheduler milliseconds from the accepted cancel to CANCELLED in the scheduler's table
     * @param toVisible milliseconds from the accepted cancel to CANCELLED visible in the API's read model
     * @param toInterrupt running group: milliseconds from the accepted cancel to the worker's interrupt; empty for
     *                    the waiting group
     */
    public record Group(Kind kind, int jobs, int notAccepted, int notCancelled, int ran, int notInterrupted,
                        Percentiles answer, Percentiles toScheduler, Percentiles toVisible, Percentiles toInterrupt) {
    }

    /** The figures of {@code jobs}, one group per kind that has jobs. */
    public static Cancels of(List<Job> jobs) {
        List<Group> groups = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            List<Job> group = jobs.stream().filter(j -> j.kind() == kind).toList();
            if (group.isEmpty()) {
                continue;
            }
            boolean running = kind == Kind.RUNNING;
            groups.add(new Group(kind, group.size(), count(group, j -> !j.accepted()),
                    count(group, j -> !j.cancelled()), running ? -1 : count(group, Job::ran),
                    running ? count(group, j -> !j.interrupted()) : -1,
                    percentiles(group, j -> j.accepted() ? j.answerMs() : Double.NaN),
                    percentiles(group, Job::toSchedulerMs), percentiles(group, Job::toVisibleMs),
                    running ? percentiles(group, Job::toInterruptMs) : Percentiles.EMPTY));
        }
        return new Cancels(List.copyOf(groups));
    }

    /** Whether the workload ran (some group has jobs). */
    public boolean measured() {
        return !groups.isEmpty();
    }

    /**
     * Whether every job ended as a cancelled one must: the cancel answered 202, the job CANCELLED, a waiting job never
     * run, a running one interrupted after one run. Lost: a job not finished when the bench stopped waiting (still
     * PENDING or RUNNING, or no row); duplicated: a running job run more than once; unexpected: the rest.
     */
    public static Correctness correctness(List<Job> jobs) {
        Correctness.Tally tally = new Correctness.Tally();
        for (Job job : jobs) {
            String problem = job.problem();
            String example = job.jobId() + " (cancel " + job.kind().label() + "): " + problem;
            if (problem == null) {
                tally.asExpected();
            } else if (!job.cancelled() && (job.status() == null || "PENDING".equals(job.status())
                    || "RUNNING".equals(job.status()))) {
                tally.lost(example);
            } else if (job.kind() == Kind.RUNNING && job.executions() > 1) {
                tally.duplicated(example);
            } else {
                tally.unexpected(example);
            }
        }
        return tally.of(jobs.size());
    }

    private static int count(List<Job> jobs, java.util.function.Predicate<Job> test) {
        return (int) jobs.stream().filter(test).count();
    }

    private static Percentiles percentiles(List<Job> jobs, ToDoubleFunction<Job> f) {
        return Percentiles.of(jobs.stream().mapToDouble(f).filter(v -> !Double.isNaN(v)).toArray());
    }
}
