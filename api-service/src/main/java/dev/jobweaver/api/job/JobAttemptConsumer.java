package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.store.JobAttemptStore;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Records every attempt the workers report on {@code job-completed} and {@code job-failed} into {@code job_attempts}
 * ({@link JobAttemptStore}), the history {@code GET /api/jobs/{id}/attempts} shows. It reads the workers' reports, not
 * the scheduler's {@code job-status}, because a status event names only a job's latest attempt, and the read model
 * merges a job's quick changes into one write: two attempts a second apart would leave one trace there.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll's attempts are stored in one statement and the poll is acknowledged after it; a report consumed twice
 *       is stored once (the first report of an attempt is kept).</li>
 *   <li>The quarantine rule ({@link BatchIntake}): a record that does not parse, breaks a rule ({@link EventRules}) or
 *       is not keyed by its jobId is set aside with its original bytes, and the reports beside it are stored.</li>
 *   <li>It has its own consumer group, so the history never holds back the scheduler, which consumes the same
 *       topics.</li>
 * </ul>
 * Polls are taken one at a time, on the consumer's Vert.x event loop.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class JobAttemptConsumer {

    private final BatchIntake<JobAttemptStore.Attempt> intake;

    public JobAttemptConsumer(JobAttemptStore store, Quarantine quarantine, ObjectMapper mapper) {
        BatchIntake.Reader<JobAttemptStore.Attempt> completed = BatchIntake.events(mapper, JobCompletedEvent.class,
                EventRules::problem, (key, e) -> EventRules.keyProblem(key, e.jobId()),
                (record, e) -> new JobAttemptStore.Attempt(e.jobId(), e.attempt(), JobAttemptStore.Outcome.COMPLETED,
                        e.startedAt(), e.finishedAt(), null, e.workerId()));
        BatchIntake.Reader<JobAttemptStore.Attempt> failed = BatchIntake.events(mapper, JobFailedEvent.class,
                EventRules::problem, (key, e) -> EventRules.keyProblem(key, e.jobId()),
                (record, e) -> new JobAttemptStore.Attempt(e.jobId(), e.attempt(), JobAttemptStore.Outcome.FAILED,
                        e.startedAt(), e.failedAt(), e.errorMessage(), e.workerId()));
        this.intake = new BatchIntake<>(Channels.JOB_ATTEMPTS_IN, quarantine,
                (record, origin) -> Topics.JOB_COMPLETED.equals(record.getTopic())
                        ? completed.read(record, origin) : failed.read(record, origin),
                attempts -> store.recordAll(attempts).replaceWithVoid());
        quarantine.register(Topics.JOB_COMPLETED, Topics.JOB_FAILED);
    }

    @Incoming(Channels.JOB_ATTEMPTS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
