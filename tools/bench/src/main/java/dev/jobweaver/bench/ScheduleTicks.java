package dev.jobweaver.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the schedules workload measured: N interval schedules created, then a window in which each ticks every
 * interval. Whether every tick due in the window made exactly one job in the API's {@code jobs} table, how long after
 * its tick each job was stored, the scheduler's own tick lag where it publishes one, and what the schedules cost each
 * process in CPU and memory against an idle window of the same length before they existed.
 *
 * @param schedules schedules the API created (201 with an id)
 * @param notCreated creations not answered 201 with an id
 * @param creationPerSecond created schedules / (last answer - first request)
 * @param createAnswer milliseconds {@code POST /api/schedules} took to answer 201
 * @param interval every schedule's interval
 * @param from the start of the measured window: the last creation's answer, when every schedule existed
 * @param to its end
 * @param expectedTicks ticks of the created schedules due within {@code [from, to]}: from each schedule's
 *                      {@code nextRunAt} on, every {@code interval}
 * @param asExpected of them, ticks with exactly one job
 * @param missing ticks without a job
 * @param duplicated ticks with more than one job (0 by construction: a tick's job id is fixed)
 * @param offGrid jobs of the schedules stored for a {@code scheduled_for} in the window that is no tick of their
 *                schedule
 * @param firstTickGuessed schedules whose 201 had no {@code nextRunAt}, whose first tick was taken as its answer's
 *                         arrival plus the interval
 * @param tickLag milliseconds from a tick ({@code jobs.scheduled_for}) to its job stored in the API
 *                ({@code jobs.created_at}), over every job of a tick in the window
 * @param metric the scheduler's own {@code jobweaver_schedule_tick_lag_seconds} and ticks by outcome over the window
 * @param processes CPU and RSS per process in the idle window and in the measured one
 * @param removed schedules deleted after the window (answered 204)
 * @param problems up to {@link Correctness#MAX_EXAMPLES} ticks with what went wrong
 */
public record ScheduleTicks(int schedules, int notCreated, double creationPerSecond, Percentiles createAnswer,
                            Duration interval, Instant from, Instant to, int expectedTicks, int asExpected,
                            int missing, int duplicated, int offGrid, int firstTickGuessed, Percentiles tickLag,
                            SchedulerMetric metric, List<ProcessUse> processes, int removed, List<String> problems) {

    /** Every schedule's interval: N schedules then make N jobs a minute. */
    public static final Duration INTERVAL = Duration.ofSeconds(60);

    /** Requests in flight at most while schedules are created and deleted, one connection each. */
    public static final int CONCURRENCY = 16;

    /**
     * How far a stored {@code scheduled_for} may be from the tick the bench computed and still be that tick: the API's
     * {@code nextRunAt} and PostgreSQL's microseconds may round the same instant differently.
     */
    static final Duration TOLERANCE = Duration.ofMillis(1);

    /** The name every schedule of the bench starts with, so that one left behind is recognisable. */
    static final String NAME_PREFIX = "jobweaver-bench-";

    /** The job each tick makes: one LOG step, no retry. */
    static final String JOB = "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
            + "\"message\":\"tick\"}]},\"maxRetryCount\":0}";

    public ScheduleTicks {
        processes = List.copyOf(processes);
        problems = List.copyOf(problems);
    }

    /** The {@code POST /api/schedules} body of schedule {@code name}, ticking every {@code interval}. */
    public static String body(String name, Duration interval) {
        return "{\"name\":\"" + name + "\",\"interval\":\"PT" + interval.toSeconds() + "S\",\"job\":" + JOB + "}";
    }

    /**
     * One created schedule.
     *
     * @param id its id
     * @param answerMs how long its creation took to answer 201
     * @param createdAt when that answer reached the bench
     * @param nextRunAt its first tick as the API answered it; null when the answer had none
     */
    public record Schedule(UUID id, double answerMs, Instant createdAt, Instant nextRunAt) {

        /** Its first tick: {@code nextRunAt}, else the answer's arrival plus {@code interval}. */
        Instant firstTick(Duration interval) {
            return nextRunAt != null ? nextRunAt : createdAt.plus(interval);
        }
    }

    /**
     * One job a tick made, as {@code jobweaver_api.jobs} has it.
     *
     * @param scheduleId {@code schedule_id}
     * @param scheduledFor {@code scheduled_for}: the tick
     * @param createdAt {@code created_at}: when the API stored the job
     */
    public record TickJob(UUID scheduleId, Instant scheduledFor, Instant createdAt) {
    }

    /**
     * The scheduler's {@code jobweaver_schedule_tick_lag_seconds} (fired at - scheduled for) and
     * {@code jobweaver_schedule_ticks_total}, read from every scheduler instance's {@code /q/metrics} at both ends of
     * the window.
     *
     * @param quantilesMs the quantiles the summary publishes ({@code quantile} label to milliseconds) at the window's
     *                    end, the largest over the instances; empty when none is published (a histogram's buckets
     *                    are not turned into quantiles)
     * @param count ticks the summary counted in the window, all instances; NaN when it is not published
     * @param meanMs the growth of its {@code _sum} over that of its {@code _count}, milliseconds; NaN without ticks
     * @param maxMs its {@code _max} at the window's end, the largest over the instances; NaN when not published
     * @param ticksByOutcome the growth of {@code jobweaver_schedule_ticks_total} per {@code outcome} label
     */
    public record SchedulerMetric(Map<String, Double> quantilesMs, double count, double meanMs, double maxMs,
                                  Map<String, Double> ticksByOutcome) {

        /** Not read. */
        public static final SchedulerMetric NONE = new SchedulerMetric(Map.of(), Double.NaN, Double.NaN, Double.NaN,
                Map.of());

        /** The summary's name. */
        static final String LAG = "jobweaver_schedule_tick_lag_seconds";
        /** The counter's name. */
        static final String TICKS = "jobweaver_schedule_ticks_total";

        public SchedulerMetric {
            quantilesMs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(quantilesMs));
            ticksByOutcome = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ticksByOutcome));
        }

        /** Whether the scheduler publishes the lag at all. */
        public boolean published() {
            return !quantilesMs.isEmpty() || !Double.isNaN(count) || !Double.isNaN(maxMs);
        }

        /**
         * The figures from each instance's samples {@code before} and {@code after} the window (by instance name;
         * an instance missing from either counts nothing).
         */
        public static SchedulerMetric of(Map<String, List<PrometheusText.Sample>> before,
                                         Map<String, List<PrometheusText.Sample>> after) {
            Map<String, Double> quantiles = new LinkedHashMap<>();
            double count = Double.NaN;
            double sum = Double.NaN;
            double max = Double.NaN;
            Map<String, Double> outcomes = new LinkedHashMap<>();
            for (Map.Entry<String, List<PrometheusText.Sample>> e : after.entrySet()) {
                List<PrometheusText.Sample> end = e.getValue();
                List<PrometheusText.Sample> start = before.getOrDefault(e.getKey(), List.of());
                for (PrometheusText.Sample s : end) {
                    if (s.name().equals(LAG) && s.labels().containsKey("quantile") && !Double.isNaN(s.value())) {
                        quantiles.merge(s.labels().get("quantile"), s.value() * 1000, Math::max);
                    } else if (s.name().equals(LAG + "_max") && !Double.isNaN(s.value())) {
                        max = Double.isNaN(max) ? s.value() * 1000 : Math.max(max, s.value() * 1000);
                    } else if (s.name().equals(TICKS)) {
                        String outcome = s.labels().getOrDefault("outcome", "-");
                        double grown = s.value() - PrometheusText.sum(start, TICKS, Map.of("outcome", outcome));
                        if (!Double.isNaN(grown)) {
                            outcomes.merge(outcome, grown, Double::sum);
                        }
                    }
                }
                double c = grown(start, end, LAG + "_count");
                double s = grown(start, end, LAG + "_sum");
                if (!Double.isNaN(c)) {
                    count = Double.isNaN(count) ? c : count + c;
                    sum = Double.isNaN(sum) ? s : sum + s;
                }
            }
            double mean = Double.isNaN(count) || count <= 0 || Double.isNaN(sum) ? Double.NaN : sum / count * 1000;
            return new SchedulerMetric(quantiles, count, mean, max, outcomes);
        }

        /** The growth of the unlabelled-or-summed {@code name} between the two readings; NaN when not in both. */
        private static double grown(List<PrometheusText.Sample> before, List<PrometheusText.Sample> after,
                                    String name) {
            double a = PrometheusText.sum(after, name, Map.of());
            double b = PrometheusText.sum(before, name, Map.of());
            return Double.isNaN(a) || Double.isNaN(b) || a < b ? Double.NaN : a - b;
        }
    }

    /**
     * One process's use in the two windows.
     *
     * @param process the instance name ({@code scheduler-service}, {@code postgres}, ...)
     * @param idleCpuPercent CPU in the idle window, percent of one core (from {@code /proc} utime + stime); NaN when
     *                       not readable
     * @param loadedCpuPercent the same in the window with the schedules
     * @param idleRssMb largest RSS in the idle window, MiB (every second); NaN without a reading
     * @param loadedRssMb the same with the schedules
     */
    public record ProcessUse(String process, double idleCpuPercent, double loadedCpuPercent, double idleRssMb,
                             double loadedRssMb) {
    }

    /**
     * The tick figures of {@code created} schedules from the jobs of their ticks, over {@code [from, to]}; the rest
     * as measured.
     */
    public static ScheduleTicks of(List<Schedule> created, int notCreated, double creationPerSecond,
                                   Duration interval, Instant from, Instant to, List<TickJob> jobs,
                                   SchedulerMetric metric, List<ProcessUse> processes, int removed) {
        Map<UUID, Schedule> byId = new HashMap<>();
        created.forEach(s -> byId.put(s.id(), s));
        // per schedule, jobs by tick number (0: its first tick)
        Map<UUID, Map<Long, Integer>> found = new HashMap<>();
        List<Double> lags = new ArrayList<>();
        int offGrid = 0;
        List<String> problems = new ArrayList<>();
        for (TickJob job : jobs) {
            Schedule s = byId.get(job.scheduleId());
            if (s == null || job.scheduledFor() == null || job.scheduledFor().isBefore(from)
                    || job.scheduledFor().isAfter(to)) {
                continue;
            }
            if (job.createdAt() != null) {
                lags.add(JobRecord.millisBetween(job.scheduledFor(), job.createdAt()));
            }
            Instant first = s.firstTick(interval);
            long sinceNanos = Duration.between(first, job.scheduledFor()).toNanos();
            long k = Math.round(sinceNanos / (double) interval.toNanos());
            Instant tick = first.plus(interval.multipliedBy(k));
            if (k < 0 || Duration.between(tick, job.scheduledFor()).abs().compareTo(TOLERANCE) > 0) {
                offGrid++;
                if (problems.size() < Correctness.MAX_EXAMPLES) {
                    problems.add(s.id() + " (schedule): a job for " + job.scheduledFor() + ", which is no tick of it");
                }
                continue;
            }
            found.computeIfAbsent(s.id(), id -> new HashMap<>()).merge(k, 1, Integer::sum);
        }
        int expected = 0;
        int ok = 0;
        int missing = 0;
        int duplicated = 0;
        int guessed = 0;
        for (Schedule s : created) {
            guessed += s.nextRunAt() == null ? 1 : 0;
            Instant first = s.firstTick(interval);
            Map<Long, Integer> jobsByTick = found.getOrDefault(s.id(), Map.of());
            for (long k : ticks(first, interval, from, to)) {
                expected++;
                int n = jobsByTick.getOrDefault(k, 0);
                if (n == 1) {
                    ok++;
                    continue;
                }
                String problem;
                if (n == 0) {
                    missing++;
                    problem = "no job";
                } else {
                    duplicated++;
                    problem = n + " jobs";
                }
                if (problems.size() < Correctness.MAX_EXAMPLES) {
                    problems.add(s.id() + " (schedule): tick " + first.plus(interval.multipliedBy(k)) + ": "
                            + problem);
                }
            }
        }
        double[] answers = created.stream().mapToDouble(Schedule::answerMs).filter(v -> !Double.isNaN(v)).toArray();
        return new ScheduleTicks(created.size(), notCreated, creationPerSecond, Percentiles.of(answers), interval,
                from, to, expected, ok, missing, duplicated, offGrid, guessed,
                Percentiles.of(lags.stream().mapToDouble(Double::doubleValue).toArray()), metric, processes, removed,
                problems);
    }

    /** The numbers k >= 0 of the ticks {@code first + k * interval} within {@code [from, to]}. */
    static List<Long> ticks(Instant first, Duration interval, Instant from, Instant to) {
        List<Long> ks = new ArrayList<>();
        if (first.isAfter(to)) {
            return ks;
        }
        long step = interval.toNanos();
        long lowest = Math.max(0, ceilDiv(Duration.between(first, from).toNanos(), step));
        long highest = Math.floorDiv(Duration.between(first, to).toNanos(), step);
        for (long k = lowest; k <= highest; k++) {
            ks.add(k);
        }
        return ks;
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    /** Whether the workload ran (some schedule was created). */
    public boolean measured() {
        return schedules > 0;
    }

    /** The window's length. */
    public Duration window() {
        return Duration.between(from, to);
    }

    /**
     * The ticks judged as jobs: accepted = ticks due in the window, as expected = those with exactly one job, lost =
     * those without, duplicated = those with more, unexpected = jobs at no tick.
     */
    public Correctness correctness() {
        return new Correctness(expectedTicks, asExpected, missing, duplicated, offGrid, problems);
    }

    /** The row of the first scheduler instance, or null. */
    public ProcessUse scheduler() {
        return processes.stream().filter(p -> p.process().startsWith("scheduler-service")).findFirst().orElse(null);
    }
}
