package dev.jobweaver.api.job.service;

import dev.jobweaver.api.job.persistence.JobEntity;
import dev.jobweaver.api.job.persistence.JobRepository;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.job.JobType;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/** Reads the jobs read model. */
@ApplicationScoped
public class JobQueryService {

    private final JobRepository jobs;

    public JobQueryService(JobRepository jobs) {
        this.jobs = jobs;
    }

    /** The job, or null when there is none with this id. */
    @WithSpan("find job")
    public Uni<JobEntity> find(UUID id) {
        return Panache.withSession(() -> jobs.findById(id));
    }

    /** A page of jobs, newest first. */
    @WithSpan("list jobs")
    public Uni<JobRepository.JobSlice> list(JobType type, JobStatus status, int page, int size) {
        return Panache.withSession(() -> jobs.page(type, status, page, size));
    }
}
