package dev.jobweaver.api.job;

import dev.jobweaver.api.job.store.JobAttemptStore;
import dev.jobweaver.api.job.store.JobReadStore;
import dev.jobweaver.api.job.store.StoredJob;
import dev.jobweaver.api.platform.db.Slice;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;

/** Reads the jobs read model and the attempts' history. */
@ApplicationScoped
public class JobQueryService {

    @Inject JobReadStore jobs;
    @Inject JobAttemptStore attempts;

    /** The job, or null when there is none with this id. */
    @WithSpan("find job")
    public Uni<StoredJob> find(UUID id) {
        return jobs.find(id);
    }

    /** The attempts of {@code id} its workers reported, first to last. */
    @WithSpan("find job attempts")
    public Uni<List<JobAttemptStore.Attempt>> attempts(UUID id) {
        return attempts.of(id);
    }

    /** A page of jobs, newest first. */
    @WithSpan("list jobs")
    public Uni<Slice<StoredJob>> list(JobReadStore.Filter filter, int page, int size) {
        return jobs.page(filter, page, size);
    }
}
