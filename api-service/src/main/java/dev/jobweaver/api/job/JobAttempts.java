package dev.jobweaver.api.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.jobweaver.api.job.store.JobAttemptStore;
import dev.jobweaver.api.job.store.StoredJob;
import dev.jobweaver.common.job.JobStatus;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The answer to {@code GET /api/jobs/{id}/attempts}: every attempt of the job, first to last, one sequence across
 * requeues.
 *
 * @param status the job's status now
 * @param attempts one entry per attempt started, numbered from 1
 */
@RegisterForReflection
public record JobAttempts(UUID jobId, JobStatus status, List<Attempt> attempts) {

    /**
     * One attempt.
     *
     * @param outcome {@code COMPLETED} or {@code FAILED} as its worker reported it; {@code RUNNING} for the attempt
     *     that runs now; {@code UNREPORTED} for one no worker reported (its lease expired with its worker, or the
     *     report is still on its way)
     * @param durationMs from start to end, when both are known
     * @param error the failure's message, for a failed attempt
     * @param workerId the worker that ran it, when reported
     */
    @RegisterForReflection
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Attempt(int attempt, String outcome, Instant startedAt, Instant finishedAt, Long durationMs,
                          String error, String workerId) {
    }

    /** The attempts of {@code job}: the reported ones, and an entry for each it started that no worker reported. */
    static JobAttempts of(StoredJob job, List<JobAttemptStore.Attempt> reported) {
        Map<Integer, JobAttemptStore.Attempt> byNumber = new HashMap<>();
        reported.forEach(a -> byNumber.put(a.attempt(), a));
        int last = Math.max(job.attempts(), reported.isEmpty() ? 0 : reported.getLast().attempt());
        List<Attempt> attempts = new ArrayList<>(last);
        for (int n = 1; n <= last; n++) {
            JobAttemptStore.Attempt a = byNumber.get(n);
            if (a != null) {
                Long duration = a.startedAt() != null && a.finishedAt() != null
                        ? Duration.between(a.startedAt(), a.finishedAt()).toMillis() : null;
                attempts.add(new Attempt(n, a.outcome().name(), a.startedAt(), a.finishedAt(), duration, a.error(),
                        a.workerId()));
            } else if (n == job.attempts() && job.status() == JobStatus.RUNNING) {
                attempts.add(new Attempt(n, "RUNNING", null, null, null, null, null));
            } else {
                attempts.add(new Attempt(n, "UNREPORTED", null, null, null, null, null));
            }
        }
        return new JobAttempts(job.id(), job.status(), attempts);
    }
}
