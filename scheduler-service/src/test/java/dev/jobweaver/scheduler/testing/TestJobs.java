package dev.jobweaver.scheduler.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Events as the API and the worker publish them. */
public final class TestJobs {

    private TestJobs() {
    }

    /** A stored instruction of one LOG step, as ingestion writes it. */
    public static final String LOG_INSTRUCTION = "{\"steps\":[{\"action\":\"LOG\",\"message\":\"x\"}]}";

    public static JobCreatedEvent created(UUID jobId, int maxRetries, Step... steps) {
        List<Step> list = steps.length == 0 ? List.of(new Step.Log("hello")) : List.of(steps);
        return new JobCreatedEvent(jobId, JobType.SIMULATION, new JobPayload(list), maxRetries,
                traceId(jobId), Instant.now());
    }

    /** A job's event with {@code control}, as the API publishes it since job control. */
    public static JobCreatedEvent created(UUID jobId, int maxRetries, JobControl control, Step... steps) {
        List<Step> list = steps.length == 0 ? List.of(new Step.Log("hello")) : List.of(steps);
        return new JobCreatedEvent(jobId, JobType.SIMULATION, Payloads.tree(new JobPayload(list)), maxRetries,
                traceId(jobId), Instant.now(), control);
    }

    /** A success that reports {@code result}. */
    public static JobCompletedEvent completed(UUID jobId, int attempt, JsonNode result) {
        Instant now = Instant.now();
        return new JobCompletedEvent(EventIds.runEventId(jobId, attempt), jobId, attempt, traceId(jobId),
                now.minusMillis(5), now, "test-worker", result);
    }

    /** A success without a result. */
    public static JobCompletedEvent completed(UUID jobId, int attempt) {
        return completed(jobId, attempt, null);
    }

    public static JobFailedEvent failed(UUID jobId, int attempt, String error) {
        Instant now = Instant.now();
        return new JobFailedEvent(EventIds.runEventId(jobId, attempt), jobId, attempt, traceId(jobId), error,
                now.minusMillis(5), now, "test-worker");
    }

    /** A client's cancel of the job, as the API publishes it on job-commands. */
    public static JobCommandEvent cancel(UUID jobId) {
        return new JobCommandEvent(jobId, JobCommand.CANCEL, traceId(jobId), Instant.now());
    }

    /** A client's delete of the job, as the API publishes it on job-commands. */
    public static JobCommandEvent delete(UUID jobId) {
        return new JobCommandEvent(jobId, JobCommand.DELETE, traceId(jobId), Instant.now());
    }

    /**
     * A requeue of the dead-lettered job that names no failure, as an API that predates {@code failedAt} sent it;
     * null keeps the job's own payload or retries.
     */
    public static JobCommandEvent requeue(UUID jobId, JsonNode payload, Integer maxRetryCount) {
        return requeue(jobId, payload, maxRetryCount, null);
    }

    /** A client's requeue of the job's failure at {@code failedAt}, as the API publishes it. */
    public static JobCommandEvent requeue(UUID jobId, JsonNode payload, Integer maxRetryCount, Instant failedAt) {
        return JobCommandEvent.requeue(jobId, traceId(jobId), Instant.now(), payload, maxRetryCount, failedAt);
    }

    /** A job's event asking it to start an hour from now: stored PENDING, not due. */
    public static JobCreatedEvent createdForLater(UUID jobId) {
        return created(jobId, 0, new JobControl(null, Instant.now().plusSeconds(3600), null, null, null, null));
    }

    /** A trace id derived from the job id, so each job has its own. */
    public static String traceId(UUID jobId) {
        return jobId.toString().replace("-", "");
    }
}
