package dev.jobweaver.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The limits workload's second phase: jobs sleeping under a tenant limit that binds, how many of them ran at once
 * (from the worker's start and the job's finish, both the worker's clock) and how near the ideal rate they completed.
 *
 * @param tenant the tenant every job of the workload was sent with
 * @param freeLimit its {@code maxRunning} during the burst, which does not bind
 * @param bindingLimit its {@code maxRunning} during this phase
 * @param sleepMs how long each job of this phase sleeps
 * @param notAccepted jobs of this phase the API did not answer 202
 * @param jobs this phase's accepted jobs as the platform recorded them
 * @param maxRunning the most of them running at once
 * @param overLimit the jobs whose start made more than {@code bindingLimit} run at once
 * @param jobsPerSecond completed jobs / (last finish - first start); NaN without a completion
 */
public record TenantLimits(String tenant, int freeLimit, int bindingLimit, long sleepMs, int notAccepted,
                           List<JobRecord> jobs, int maxRunning, Set<UUID> overLimit, double jobsPerSecond) {

    /** Copies the collections. */
    public TenantLimits {
        jobs = List.copyOf(jobs);
        overLimit = Set.copyOf(overLimit);
    }

    /** The figures of {@code jobs}, which ran under {@code bindingLimit}. */
    static TenantLimits of(String tenant, int freeLimit, int bindingLimit, long sleepMs, int notAccepted,
                           List<JobRecord> jobs) {
        List<Interval> intervals = intervals(jobs);
        Sweep sweep = sweep(intervals, bindingLimit);
        Set<UUID> over = new HashSet<>();
        sweep.overLimit().forEach(i -> over.add(intervals.get(i).jobId()));
        List<JobRecord> completed = jobs.stream().filter(JobRecord::completed).toList();
        Instant firstStart = jobs.stream().map(JobRecord::startedAt).filter(Objects::nonNull)
                .min(Comparator.naturalOrder()).orElse(null);
        return new TenantLimits(tenant, freeLimit, bindingLimit, sleepMs, notAccepted, jobs, sweep.max(), over,
                WorkloadResult.throughput(completed, firstStart, JobRecord::finishedAt));
    }

    /** Whether any job of this phase was accepted. */
    boolean measured() {
        return !jobs.isEmpty();
    }

    /** The jobs that ended COMPLETED. */
    int completed() {
        return (int) jobs.stream().filter(JobRecord::completed).count();
    }

    /** Jobs a second with every slot of the limit always busy: limit / sleep. */
    double idealPerSecond() {
        return sleepMs <= 0 ? Double.NaN : bindingLimit * 1000.0 / sleepMs;
    }

    /** {@link #jobsPerSecond} as a share of {@link #idealPerSecond}. */
    double shareOfIdeal() {
        return jobsPerSecond / idealPerSecond();
    }

    /** Whether more jobs ran at once than the limit allows. */
    boolean exceeded() {
        return maxRunning > bindingLimit;
    }

    /**
     * Whether every job of this phase ended as expected, exactly once, and started within the limit: a job whose start
     * made more than {@link #bindingLimit} run at once is unexpected, however it ended.
     */
    Correctness correctness() {
        Correctness ended = Correctness.check(jobs);
        if (overLimit.isEmpty()) {
            return ended;
        }
        // only those check() found as expected move: the others are counted already
        long moved = jobs.stream().filter(j -> overLimit.contains(j.jobId()))
                .filter(j -> Correctness.check(List.of(j)).ok()).count();
        List<String> examples = new ArrayList<>();
        examples.add(overLimit.size() + " jobs of tenant " + tenant + " started while " + bindingLimit + " ran "
                + "already (maxRunning " + bindingLimit + "; at most " + maxRunning + " at once), e.g. "
                + overLimit.stream().sorted().findFirst().orElseThrow());
        examples.addAll(ended.examples());
        return new Correctness(ended.accepted(), ended.asExpected() - (int) moved, ended.lost(), ended.duplicated(),
                ended.unexpected() + (int) moved, List.copyOf(examples.subList(0,
                Math.min(examples.size(), Correctness.MAX_EXAMPLES))));
    }

    /**
     * When one job ran: from its first attempt's start to its finish; a null end: still running when read, which
     * holds its slot to the end of the reading.
     */
    record Interval(UUID jobId, Instant start, Instant end) {
    }

    /** The interval of each job of {@code jobs} that started; a finish before the start counts as the start. */
    static List<Interval> intervals(List<JobRecord> jobs) {
        return jobs.stream().filter(j -> j.startedAt() != null).map(j -> new Interval(j.jobId(), j.startedAt(),
                j.finishedAt() == null || !j.finishedAt().isBefore(j.startedAt()) ? j.finishedAt() : j.startedAt()))
                .toList();
    }

    /**
     * The most intervals open at once, and the intervals (by index) whose start made more than {@code limit} open.
     *
     * @param max the most at once
     * @param overLimit indexes into the intervals swept
     */
    record Sweep(int max, List<Integer> overLimit) {
    }

    /**
     * Sweeps {@code intervals} in time order. An interval holds its slot from its start up to, not including, its end,
     * so one ending when another starts does not overlap it; an interval that ends where it starts holds its slot at
     * that instant, beside every other starting then.
     */
    static Sweep sweep(List<Interval> intervals, int limit) {
        // kind: 0 an end that frees a slot first, 1 a start, 2 the end of an interval as long as nothing
        record Event(Instant at, int kind, int index) {
        }
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < intervals.size(); i++) {
            Interval interval = intervals.get(i);
            events.add(new Event(interval.start(), 1, i));
            if (interval.end() != null) {
                events.add(new Event(interval.end(), interval.end().equals(interval.start()) ? 2 : 0, i));
            }
        }
        events.sort(Comparator.comparing(Event::at).thenComparingInt(Event::kind).thenComparingInt(Event::index));
        int running = 0;
        int max = 0;
        List<Integer> over = new ArrayList<>();
        for (Event e : events) {
            if (e.kind() == 1) {
                running++;
                max = Math.max(max, running);
                if (running > limit) {
                    over.add(e.index());
                }
            } else {
                running--;
            }
        }
        return new Sweep(max, List.copyOf(over));
    }
}
