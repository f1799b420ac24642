package dev.jobweaver.api.job.persistence;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reads {@code jobs} for the query endpoints and the sweeper; every call must run inside a Panache session. */
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
}
