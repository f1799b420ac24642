package dev.jobweaver.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the mixed workload's features did beside its plain jobs: the idempotent submissions, the webhooks of the
 * labelled jobs and the workflow runs started along the burst.
 *
 * @param keyed jobs accepted with an {@code Idempotency-Key}
 * @param keyedSameJob of them, jobs whose repeat (same key, same body) was answered 202 with the same job id
 * @param keyedSecondJob of them, jobs whose repeat was answered 202 with another job id: a second job
 * @param keyedRefused of them, jobs whose repeat was answered otherwise (or not at all)
 * @param labelled jobs accepted with the label the subscription filters on
 * @param filtered whether the API took the subscription's label filter (its 201 shows it); without it no webhook is
 *                 asked for and the four hook counts are 0
 * @param hookedOnce labelled COMPLETED jobs whose webhook arrived exactly once
 * @param hooksMissing labelled COMPLETED jobs without a webhook
 * @param hooksRepeated labelled jobs with more than one webhook
 * @param hooksUnmatched webhooks for jobs without the label (or for none of the bench's jobs)
 * @param runsStarted workflow runs requested, one per {@link MixedBench#JOBS_PER_RUN} accepted jobs
 * @param runsAccepted of them, answered 202 with a run id
 * @param runsCompleted of them, runs that ended COMPLETED
 * @param nodesPerRun the workflow's nodes, each a no-op job
 * @param correctness each keyed job, each labelled COMPLETED job's webhooks, each unmatched webhook and each
 *                    requested run judged
 */
public record MixedFeatures(int keyed, int keyedSameJob, int keyedSecondJob, int keyedRefused, int labelled,
                            boolean filtered, int hookedOnce, int hooksMissing, int hooksRepeated, int hooksUnmatched,
                            int runsStarted, int runsAccepted, int runsCompleted, int nodesPerRun,
                            Correctness correctness) {

    /**
     * The figures from what the bench saw.
     *
     * @param repeats per keyed job, the job id its repeat was answered with; null when it was not answered 202
     * @param labelled the labelled jobs, each with whether it COMPLETED
     * @param filtered whether the subscription took the label filter
     * @param deliveries the job id of every webhook received (null: a delivery naming no job)
     * @param runs per requested run, its last status; null when it was not accepted or never read
     * @param runsAccepted runs answered 202
     * @param nodesPerRun the workflow's nodes
     */
    public static MixedFeatures of(Map<UUID, UUID> repeats, Map<UUID, Boolean> labelled, boolean filtered,
                                   List<UUID> deliveries, List<String> runs, int runsAccepted, int nodesPerRun) {
        Correctness.Tally tally = new Correctness.Tally();
        int same = 0;
        int second = 0;
        int refused = 0;
        for (Map.Entry<UUID, UUID> e : repeats.entrySet()) {
            if (e.getKey().equals(e.getValue())) {
                same++;
                tally.asExpected();
            } else if (e.getValue() != null) {
                second++;
                tally.duplicated(e.getKey() + " (keyed): its repeat made a second job " + e.getValue());
            } else {
                refused++;
                tally.unexpected(e.getKey() + " (keyed): its repeat was not answered 202 with the first job");
            }
        }
        int judged = repeats.size();
        int once = 0;
        int missing = 0;
        int repeated = 0;
        int unmatched = 0;
        if (filtered) {
            Map<UUID, Integer> received = new HashMap<>();
            deliveries.forEach(id -> received.merge(id == null ? NO_JOB : id, 1, Integer::sum));
            for (Map.Entry<UUID, Boolean> e : labelled.entrySet()) {
                int n = received.getOrDefault(e.getKey(), 0);
                if (n > 1) {
                    repeated++;
                    tally.duplicated(e.getKey() + " (labelled): " + n + " webhooks");
                } else if (!e.getValue()) {
                    continue;
                } else if (n == 0) {
                    missing++;
                    tally.lost(e.getKey() + " (labelled): COMPLETED without its webhook");
                } else {
                    once++;
                    tally.asExpected();
                }
                judged++;
            }
            for (Map.Entry<UUID, Integer> e : received.entrySet()) {
                if (!labelled.containsKey(e.getKey())) {
                    unmatched += e.getValue();
                    judged += e.getValue();
                    for (int i = 0; i < e.getValue(); i++) {
                        tally.unexpected((e.getKey() == NO_JOB ? "a webhook naming no job" : e.getKey()
                                + " (unlabelled): a webhook the label filter should not have sent"));
                    }
                }
            }
        }
        int completed = 0;
        for (String status : runs) {
            if ("COMPLETED".equals(status)) {
                completed++;
                tally.asExpected();
            } else if (status == null || !WorkflowRuns.RUN_ENDED.contains(status)) {
                tally.lost("a workflow run " + (status == null ? "not accepted or never read" : "still " + status));
            } else {
                tally.unexpected("a workflow run ended " + status);
            }
        }
        judged += runs.size();
        return new MixedFeatures(repeats.size(), same, second, refused, labelled.size(), filtered, once, missing,
                repeated, unmatched, runs.size(), runsAccepted, completed, nodesPerRun, tally.of(judged));
    }

    /** The key under which deliveries naming no job are counted. */
    private static final UUID NO_JOB = new UUID(0, 0);

    /** Node jobs of the completed runs. */
    public int nodeJobs() {
        return runsCompleted * nodesPerRun;
    }
}
