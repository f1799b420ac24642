package dev.jobweaver.scheduler.ingestion;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Failures;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.dispatch.Dispatcher;
import dev.jobweaver.scheduler.ingestion.IngestionService.Accepted;
import dev.jobweaver.scheduler.job.JobEventPublisher;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateWriter;
import dev.jobweaver.scheduler.job.JobTransitions;
import dev.jobweaver.scheduler.job.LeasePolicy;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.scheduler.workflow.WorkflowOrchestrator;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
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
@JobWeaverTest(database = "jobweaver_scheduler")
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

    @Inject
    WorkflowOrchestrator workflows;

    @Inject
    JobTransitions transitions;

    @Inject
    dev.jobweaver.scheduler.worker.WorkerPool workers;

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
        JobStatusChangedEvent status = awaitStatuses(jobId, 1).getFirst();
        assertThat(status.status()).isEqualTo(JobStatus.RUNNING);
        assertThat(status.version()).isEqualTo(1);
    }

    @Test
    void aPollWhoseRunsCannotBePublishedIsStoredPendingForTheDispatcher() {
        JobEventPublisher brokerDown = new JobEventPublisher(failing(), workers);
        IngestionService withoutKafka = new IngestionService(inserts, new JobStateWriter(updates, brokerDown),
                dispatcher, leasePolicy, tracing, metrics, mapper, config, workflows, transitions, workers);
        UUID jobId = UUID.randomUUID();

        Set<UUID> inserted = ingest(withoutKafka, TestJobs.created(jobId, 0));

        assertThat(inserted).containsExactly(jobId);
        // Stored PENDING and handed to the dispatcher, which publishes through the real broker.
        JobExecution job = db.awaitJob(jobId, JobStatus.RUNNING, 1);
        assertThat(job.version()).isEqualTo(1);
        assertThat(job.dispatchedAt()).isAfter(job.nextRunAt());
        assertThat(recorder.await(Topics.RUN_JOB, jobId, 1)).hasSize(1);
    }

    @Test
    void aPollWithAJobTheDatabaseRefusesFailsWithTheDatabasesVerdictAndStoresNothing() {
        UUID good = UUID.randomUUID();
        UUID bad = UUID.randomUUID();
        JobCreatedEvent valid = TestJobs.created(bad, 0);
        // Not a trace id the rules accept: here it reaches SQL, whose trace_id is VARCHAR(64).
        JobCreatedEvent tooLong = new JobCreatedEvent(bad, valid.jobType(), valid.payload(), 0, "a".repeat(100),
                valid.createdAt(), null);

        Throwable failure = failureOf(ingestion.ingest(List.of(new Accepted(TestJobs.created(good, 0), null),
                new Accepted(tooLong, null))));

        // The database's own verdict reaches the caller, which splits the poll to find the job.
        assertThat(Failures.permanentReason(failure)).as(failure.toString())
                .isEqualTo(QuarantineReason.REJECTED_BY_DATABASE);
        assertThat(failure).hasMessageContaining("value too long for type character varying(64)");
        assertThat(db.find(good)).isEmpty();
        assertThat(db.find(bad)).isEmpty();
    }

    @Test
    void aRunThatCanNeverBePublishedIsNotStoredPendingButFailsThePoll() {
        // A permanent failure to publish (the data cannot be serialised), unlike the broker being down.
        JobEventPublisher refusing = new JobEventPublisher(failing(
                new IllegalArgumentException("the run cannot be serialised")), workers);
        IngestionService refusingRuns = new IngestionService(inserts, new JobStateWriter(updates, refusing),
                dispatcher, leasePolicy, tracing, metrics, mapper, config, workflows, transitions, workers);
        UUID jobId = UUID.randomUUID();

        Throwable failure = failureOf(refusingRuns.ingest(List.of(new Accepted(TestJobs.created(jobId, 0), null))));

        // Stored PENDING, the job would fail every dispatch round after; failing, it is found and set aside.
        assertThat(Failures.permanentReason(failure)).as(failure.toString())
                .isEqualTo(QuarantineReason.UNPROCESSABLE);
        assertThat(db.find(jobId)).isEmpty();
    }

    /** How {@code ingest} failed; an assertion error if it stored the poll. */
    private static Throwable failureOf(Uni<Set<UUID>> ingest) {
        return ingest.subscribe().withSubscriber(UniAssertSubscriber.create())
                .awaitFailure(Duration.ofSeconds(30)).getFailure();
    }

    private static Set<UUID> ingest(IngestionService service, JobCreatedEvent event) {
        return service.ingest(List.of(new Accepted(event, null))).await().atMost(Duration.ofSeconds(30));
    }

    /** An emitter whose every send fails, as with the broker down. */
    private static <T> MutinyEmitter<T> failing() {
        return failing(new IllegalStateException("broker down"));
    }

    /** An emitter whose every send fails with {@code failure}. */
    @SuppressWarnings("unchecked")
    private static <T> MutinyEmitter<T> failing(RuntimeException failure) {
        return (MutinyEmitter<T>) Proxy.newProxyInstance(MutinyEmitter.class.getClassLoader(),
                new Class<?>[] {MutinyEmitter.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "sendMessage" -> Uni.createFrom().failure(failure);
                    case "toString" -> "failing emitter";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
