package dev.jobweaver.api.job.service;

import dev.jobweaver.api.job.persistence.JobReadStore;
import dev.jobweaver.api.job.persistence.StoredJob;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** Reads the jobs read model. */
@ApplicationScoped
public class JobQueryService {

    private final JobReadStore jobs;

    public JobQueryService(JobReadStore jobs) {
        this.jobs = jobs;
    }

    /** The job, or null when there is none with this id. */
    @WithSpan("find job")
    public Uni<StoredJob> find(UUID id) {
        return jobs.find(id);
    }

    /** A page of jobs, newest first. */
    @WithSpan("list jobs")
    public Uni<JobReadStore.JobSlice> list(JobReadStore.Filter filter, int page, int size) {
        return jobs.page(filter, page, size);
    }
}
