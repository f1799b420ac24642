package dev.jobweaver.scheduler.ingestion.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.local.testing.LocalStackResource;
import dev.jobweaver.scheduler.config.SchedulerConfig;
import dev.jobweaver.scheduler.dispatch.service.Dispatcher;
import dev.jobweaver.scheduler.ingestion.service.IngestionService.Accepted;
import dev.jobweaver.scheduler.job.messaging.JobEventPublisher;
import dev.jobweaver.scheduler.job.persistence.JobExecution;
import dev.jobweaver.scheduler.job.service.JobStateWriter;
import dev.jobweaver.scheduler.job.service.LeasePolicy;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import jakarta.inject.Inject;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A new job's first attempt: dispatched in the transaction that stores it, or left to the dispatcher. */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_scheduler"))
class IngestionServiceTest extends KafkaAndDbTest {

    @Inject
    IngestionService ingestion;

    @Inject
    Dispatcher dispatcher;

    @Inject
    LeasePolicy leasePolicy;

    @Inject
    JobTracing tracing;

    @Inject
    SchedulerMetrics metrics;

    @Inject
    SchedulerConfig config;

    @BeforeEach
    void noJobWaits() {
        db.dispatchAllDue(dispatcher);
    }

    @Test
    void aNewJobIsDispatchedByTheTransactionThatStoresIt() {
        UUID jobId = UUID.randomUUID();
        JobCreatedEvent event = TestJobs.created(jobId, 1);

        Set<UUID> inserted = ingest(ingestion, event);

        assertThat(inserted).containsExactly(jobId);
        // Already RUNNING when ingest completes: no dispatch round was needed.
        JobExecution job = db.get(jobId);
        assertThat(job.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(job.attempt()).isEqualTo(1);
        assertThat(job.version()).isEqualTo(1);
        // One statement's clock: stored and dispatched at the same instant.
        assertThat(job.dispatchedAt()).isEqualTo(job.nextRunAt()).isEqualTo(job.updatedAt());

        RunJobEvent run = value(recorder.await(Topics.RUN_JOB, jobId, 1).getFirst(), RunJobEvent.class);
        assertThat(run.attempt()).isEqualTo(1);
        assertThat(run.dispatchedAt()).isEqualTo(job.dispatchedAt());
        assertThat(run.leaseUntil()).isEqualTo(job.leaseUntil());
        assertThat(run.createdAt()).isEqualTo(job.createdAt());
        assertThat(run.payload()).isEqualTo(event.payload());
        JobStatusChangedEvent status = value(recorder.await(Topics.JOB_STATUS, jobId, 1).getFirst(),
                JobStatusChangedEvent.class);
        assertThat(status.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(status.version()).isEqualTo(1);
    }

    @Test
    void aPollWhoseRunsCannotBePublishedIsStoredPendingForTheDispatcher() {
        JobEventPublisher brokerDown = new JobEventPublisher(failing());
        IngestionService withoutKafka = new IngestionService(repository, new JobStateWriter(repository, brokerDown),
                dispatcher, leasePolicy, tracing, metrics, mapper, config);
        UUID jobId = UUID.randomUUID();

        Set<UUID> inserted = ingest(withoutKafka, TestJobs.created(jobId, 0));

        assertThat(inserted).containsExactly(jobId);
        // Stored PENDING and handed to the dispatcher, which publishes through the real broker.
        JobExecution job = db.awaitJob(jobId, JobStatus.RUNNING, 1);
        assertThat(job.version()).isEqualTo(1);
        assertThat(job.dispatchedAt()).isAfter(job.nextRunAt());
        assertThat(recorder.await(Topics.RUN_JOB, jobId, 1)).hasSize(1);
    }

    private static Set<UUID> ingest(IngestionService service, JobCreatedEvent event) {
        return service.ingest(List.of(new Accepted(event, null))).await().atMost(Duration.ofSeconds(30));
    }

    /** An emitter whose every send fails, as with the broker down. */
    @SuppressWarnings("unchecked")
    private static <T> MutinyEmitter<T> failing() {
        return (MutinyEmitter<T>) Proxy.newProxyInstance(MutinyEmitter.class.getClassLoader(),
                new Class<?>[] {MutinyEmitter.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "sendMessage" -> Uni.createFrom().failure(new IllegalStateException("broker down"));
                    case "toString" -> "failing emitter";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
