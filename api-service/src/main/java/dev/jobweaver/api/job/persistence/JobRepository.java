package dev.jobweaver.api.job.persistence;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reads and writes {@code jobs}; every call must run inside a Panache session or transaction. */
@ApplicationScoped
public class JobRepository implements PanacheRepositoryBase<JobEntity, UUID> {

    /** One page of jobs, newest first, with the total count of the filter. */
    public record JobSlice(List<JobEntity> jobs, long total) {
    }

    /** Jobs matching the optional filters, newest first. */
    public Uni<JobSlice> page(JobType type, JobStatus status, int page, int size) {
        List<String> where = new ArrayList<>();
        Parameters params = new Parameters();
        if (type != null) {
            where.add("type = :type");
            params = params.and("type", type);
        }
        if (status != null) {
            where.add("status = :status");
            params = params.and("status", status);
        }
        String query = String.join(" and ", where);
        var panacheQuery = query.isEmpty()
                ? findAll(Sort.descending("createdAt", "id"))
                : find(query, Sort.descending("createdAt", "id"), params);
        Uni<List<JobEntity>> jobs = panacheQuery.page(Page.of(page, size)).list();
        return jobs.chain(list -> panacheQuery.count().map(total -> new JobSlice(list, total)));
    }

    /**
     * Applies a status event if it is newer than what the job shows.
     *
     * @return 1 if applied, 0 if the job is unknown or already at this version or a newer one
     */
    public Uni<Integer> applyStatus(JobStatusChangedEvent event, Instant now) {
        Instant changedAt = event.changedAt() != null ? event.changedAt() : now;
        Instant finishedAt = event.finishedAt() != null || !event.status().isTerminal() ? event.finishedAt() : changedAt;
        return update("status = :status, statusVersion = :version, attempts = :attempts, retryCount = :retryCount,"
                        + " maxRetries = :maxRetries, nextRunAt = :nextRunAt, lastError = :lastError,"
                        + " updatedAt = :updatedAt, finishedAt = :finishedAt"
                        + " where id = :id and statusVersion < :version",
                Parameters.with("status", event.status())
                        .and("version", event.version())
                        .and("attempts", event.attempts())
                        .and("retryCount", event.retryCount())
                        .and("maxRetries", event.maxRetries())
                        .and("nextRunAt", event.nextRunAt())
                        .and("lastError", event.lastError())
                        .and("updatedAt", changedAt)
                        .and("finishedAt", finishedAt)
                        .and("id", event.jobId()));
    }

    /** Marks a job that Kafka would not take as {@code REJECTED}; it never runs. */
    public Uni<Integer> reject(UUID jobId, String reason, Instant now) {
        return update("status = :status, lastError = :reason, updatedAt = :now, finishedAt = :now, nextRunAt = null"
                        + " where id = :id and statusVersion = 0",
                Parameters.with("status", JobStatus.REJECTED).and("reason", reason).and("now", now).and("id", jobId));
    }
}
