package dev.jobweaver.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * What the notify workload measured: how soon after a job finished its {@code job.completed} webhook reached the
 * bench's receiver, how many deliveries a second arrived, how fast subscriptions were created, and what did not arrive
 * as a subscribed job's notification must (missing, with a bad signature, for no job of the bench).
 *
 * @param jobs jobs the API accepted
 * @param subscribed of them, jobs whose subscription was answered 201 with a secret
 * @param completed of them, jobs the API shows COMPLETED
 * @param delivered subscribed jobs with at least one delivery whose signature holds
 * @param missing subscribed COMPLETED jobs without such a delivery, finished after their subscription existed
 * @param finishedBeforeSubscribed subscribed jobs that finished before the 201 of their subscription reached the
 *                                 bench: the platform may rightly not notify them, so they are neither missing nor
 *                                 timed, whether a delivery came or not
 * @param deliveries deliveries received for the bench's jobs, duplicates included
 * @param duplicates deliveries beyond the first of a job (at least once allows them)
 * @param sameId of those, deliveries whose {@code webhook-id} had arrived before: redeliveries of one message
 * @param badSignatures deliveries for a subscribed job whose {@code webhook-signature} does not hold under its
 *                      subscription's secret
 * @param strays deliveries naming no job of the bench (or none at all)
 * @param deliveriesPerSecond deliveries with a good signature / (last receipt - first receipt): the rate the receiver
 *                            saw while the jobs finished; NaN with fewer than two
 * @param finishToReceipt milliseconds from a job's finish (the body's {@code finishedAt}, else
 *                        {@code jobweaver_api.jobs.finished_at}) to the arrival of its first good delivery
 * @param finishFromBody how many of those finishes came from the body
 * @param subscriptionsPerSecond subscriptions answered 201 / (last answer - first request)
 * @param subscribeAnswer milliseconds {@code POST /api/subscriptions} took to answer 201
 * @param problems up to {@link Correctness#MAX_EXAMPLES} jobs with what went wrong
 */
public record Notifications(int jobs, int subscribed, int completed, int delivered, int missing,
                            int finishedBeforeSubscribed, int deliveries, int duplicates, int sameId,
                            int badSignatures, int strays, double deliveriesPerSecond, Percentiles finishToReceipt,
                            int finishFromBody, double subscriptionsPerSecond, Percentiles subscribeAnswer,
                            List<String> problems) {

    /** Requests in flight at most while jobs are submitted and subscribed to, one connection each. */
    public static final int CONCURRENCY = 16;

    /** The least lead of the jobs' common start over the first submission. */
    public static final Duration MIN_LEAD = Duration.ofSeconds(20);

    /**
     * The lead per job: submitting took 1.6 ms a job and subscribing 2 ms a job at {@link #CONCURRENCY} on the 2-core
     * machine (2026-11-26, 10,000 jobs), so 6 ms a job lets every subscription exist before the first job runs, with
     * room for a slower hour; 3 ms left a fifth of the jobs finished before their subscription.
     */
    public static final Duration LEAD_PER_JOB = Duration.ofMillis(6);

    /** The events every subscription asks for. */
    static final String EVENT = "COMPLETED";

    /** The body's {@code type} of a completion. */
    static final String COMPLETED_TYPE = "job.completed";

    /** No notify workload. */
    public static final Notifications NONE = new Notifications(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, Double.NaN,
            Percentiles.EMPTY, 0, Double.NaN, Percentiles.EMPTY, List.of());

    public Notifications {
        problems = List.copyOf(problems);
    }

    /** How far ahead of the first submission {@code jobs} jobs start together: max(20 s, 6 ms a job). */
    public static Duration lead(int jobs) {
        Duration perJob = LEAD_PER_JOB.multipliedBy(jobs);
        return perJob.compareTo(MIN_LEAD) > 0 ? perJob : MIN_LEAD;
    }

    /** The {@code POST /api/subscriptions} body of job {@code jobId} to COMPLETED, sent to {@code url}. */
    public static String subscriptionBody(UUID jobId, String url) {
        return "{\"jobId\":\"" + jobId + "\",\"events\":[\"" + EVENT + "\"],\"url\":\"" + url + "\"}";
    }

    /**
     * One subscribed job as the bench and the platform saw it.
     *
     * @param jobId its id
     * @param answer the status {@code POST /api/subscriptions} was answered with (0: no answer)
     * @param answerMs how long that answer took; NaN without one
     * @param subscribedAt when the answer reached the bench: the subscription existed by then
     * @param key the HMAC key of its secret ({@link Webhooks#key}); null without a usable secret
     * @param status {@code jobweaver_api.jobs.status} at the end; null without a row
     * @param finishedAt {@code jobweaver_api.jobs.finished_at}; null while not finished
     */
    public record Job(UUID jobId, int answer, double answerMs, Instant subscribedAt, byte[] key, String status,
                      Instant finishedAt) {

        /** Whether the subscription was created with a secret to check its deliveries by. */
        public boolean subscribed() {
            return answer == 201 && key != null;
        }

        /** Whether the API shows it COMPLETED. */
        public boolean completed() {
            return "COMPLETED".equals(status);
        }
    }

    /** What came for one job: its good deliveries in order of arrival, the bad ones, and when it finished. */
    private record Received(List<NotifyEndpoint.Delivery> good, int bad, Instant finish, boolean fromBody) {
    }

    /**
     * The figures of {@code jobs}, given every delivery the receiver took; {@code subscriptionsPerSecond} is the
     * creation rate the workload measured while it subscribed.
     */
    public static Notifications of(List<Job> jobs, List<NotifyEndpoint.Delivery> deliveries,
                                   double subscriptionsPerSecond) {
        Map<UUID, Job> byId = new HashMap<>();
        jobs.forEach(j -> byId.put(j.jobId(), j));
        Map<UUID, List<NotifyEndpoint.Delivery>> byJob = new HashMap<>();
        int strays = 0;
        List<NotifyEndpoint.Delivery> ordered = deliveries.stream()
                .sorted(Comparator.comparing(NotifyEndpoint.Delivery::receivedAt)).toList();
        for (NotifyEndpoint.Delivery d : ordered) {
            if (d.jobId() == null || !byId.containsKey(d.jobId())) {
                strays++;
            } else {
                byJob.computeIfAbsent(d.jobId(), id -> new ArrayList<>()).add(d);
            }
        }
        int ours = 0;
        int duplicates = 0;
        int sameId = 0;
        int bad = 0;
        int delivered = 0;
        int missing = 0;
        int early = 0;
        int fromBody = 0;
        List<Double> latencies = new ArrayList<>();
        List<Instant> receipts = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Job job : jobs) {
            List<NotifyEndpoint.Delivery> came = byJob.getOrDefault(job.jobId(), List.of());
            ours += came.size();
            duplicates += Math.max(0, came.size() - 1);
            Set<String> ids = new HashSet<>();
            for (NotifyEndpoint.Delivery d : came) {
                if (d.webhookId() != null && !ids.add(d.webhookId())) {
                    sameId++;
                }
            }
            Received r = received(job, came);
            bad += r.bad();
            r.good().forEach(d -> receipts.add(d.receivedAt()));
            boolean beforeSubscribed = finishedBeforeSubscribed(job, r);
            if (beforeSubscribed) {
                early++;
            }
            if (!r.good().isEmpty() && job.subscribed()) {
                delivered++;
                if (!beforeSubscribed && r.finish() != null) {
                    latencies.add(JobRecord.millisBetween(r.finish(), r.good().getFirst().receivedAt()));
                    fromBody += r.fromBody() ? 1 : 0;
                }
            }
            if (job.subscribed() && job.completed() && r.good().isEmpty() && !beforeSubscribed) {
                missing++;
            }
            String problem = problem(job, r, beforeSubscribed);
            if (problem != null && problems.size() < Correctness.MAX_EXAMPLES) {
                problems.add(job.jobId() + " (notify): " + problem);
            }
        }
        Percentiles answers = Percentiles.of(jobs.stream().filter(j -> j.answer() == 201)
                .mapToDouble(Job::answerMs).filter(v -> !Double.isNaN(v)).toArray());
        return new Notifications(jobs.size(), (int) jobs.stream().filter(Job::subscribed).count(),
                (int) jobs.stream().filter(Job::completed).count(), delivered, missing, early, ours, duplicates,
                sameId, bad, strays, perSecond(receipts),
                Percentiles.of(latencies.stream().mapToDouble(Double::doubleValue).toArray()), fromBody,
                subscriptionsPerSecond, answers, problems);
    }

    /** The deliveries of {@code job} split by their signature, and its finish: the body's, else the API's. */
    private static Received received(Job job, List<NotifyEndpoint.Delivery> came) {
        List<NotifyEndpoint.Delivery> good = new ArrayList<>();
        int bad = 0;
        for (NotifyEndpoint.Delivery d : came) {
            if (job.subscribed() && Webhooks.verify(job.key(), d.webhookId(), d.timestamp(), d.body(),
                    d.signature())) {
                good.add(d);
            } else {
                bad++;
            }
        }
        Instant fromBody = good.stream().map(NotifyEndpoint.Delivery::finishedAt).filter(Objects::nonNull)
                .findFirst().orElse(null);
        return new Received(good, bad, fromBody != null ? fromBody : job.finishedAt(), fromBody != null);
    }

    /** Whether subscribed {@code job} finished before the 201 of its subscription reached the bench. */
    private static boolean finishedBeforeSubscribed(Job job, Received r) {
        return job.subscribed() && r.finish() != null && job.subscribedAt() != null
                && r.finish().isBefore(job.subscribedAt());
    }

    /** What went wrong with {@code job}'s notification, or null when it went as it must. */
    private static String problem(Job job, Received r, boolean beforeSubscribed) {
        List<String> wrong = new ArrayList<>();
        if (job.answer() != 201) {
            wrong.add("subscription answered " + job.answer());
        } else if (job.key() == null) {
            wrong.add("subscription answered 201 without a whsec_ secret");
        }
        if (!job.completed()) {
            wrong.add(job.status() == null ? "no row in jobweaver_api.jobs" : "ended " + job.status()
                    + ", not COMPLETED");
        } else if (job.subscribed() && r.good().isEmpty() && !beforeSubscribed) {
            wrong.add("no delivery with a good signature");
        }
        if (r.bad() > 0) {
            wrong.add(r.bad() + " deliveries with a bad signature");
        }
        for (NotifyEndpoint.Delivery d : r.good()) {
            if (d.type() != null && !COMPLETED_TYPE.equals(d.type())) {
                wrong.add("a delivery of type " + d.type() + ", not " + COMPLETED_TYPE);
                break;
            }
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    /** {@code receipts} per second over their span; NaN with fewer than two or no span. */
    static double perSecond(List<Instant> receipts) {
        if (receipts.size() < 2) {
            return Double.NaN;
        }
        Instant first = receipts.stream().min(Comparator.naturalOrder()).orElseThrow();
        Instant last = receipts.stream().max(Comparator.naturalOrder()).orElseThrow();
        double seconds = JobRecord.millisBetween(first, last) / 1000.0;
        return seconds <= 0 ? Double.NaN : receipts.size() / seconds;
    }

    /** Whether the workload ran (some job was accepted). */
    public boolean measured() {
        return jobs > 0;
    }

    /**
     * Whether every job ended as a subscribed job must: COMPLETED, its subscription created, a delivery with a good
     * signature (unless it finished before its subscription existed), none with a bad one. Lost: a job not finished,
     * or a notification that never came; unexpected: the rest. Duplicate deliveries are allowed (at least once) and
     * counted in the figures, not here.
     */
    public static Correctness correctness(List<Job> jobs, List<NotifyEndpoint.Delivery> deliveries) {
        Map<UUID, List<NotifyEndpoint.Delivery>> byJob = new HashMap<>();
        deliveries.stream().filter(d -> d.jobId() != null)
                .forEach(d -> byJob.computeIfAbsent(d.jobId(), id -> new ArrayList<>()).add(d));
        Correctness.Tally tally = new Correctness.Tally();
        for (Job job : jobs) {
            Received r = received(job, byJob.getOrDefault(job.jobId(), List.of()));
            String problem = problem(job, r, finishedBeforeSubscribed(job, r));
            boolean open = job.status() == null || "PENDING".equals(job.status()) || "RUNNING".equals(job.status());
            if (problem == null) {
                tally.asExpected();
            } else if (open || job.subscribed() && job.completed() && r.good().isEmpty() && r.bad() == 0) {
                tally.lost(job.jobId() + " (notify): " + problem);
            } else {
                tally.unexpected(job.jobId() + " (notify): " + problem);
            }
        }
        return tally.of(jobs.size());
    }
}
