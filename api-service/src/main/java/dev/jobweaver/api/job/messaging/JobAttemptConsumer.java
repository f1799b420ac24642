package dev.jobweaver.api.job.messaging;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.job.persistence.JobAttemptStore;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Bisection;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.common.reactive.VertxContexts;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Records every attempt the workers report on {@code job-completed} and {@code job-failed} into {@code job_attempts}
 * ({@link JobAttemptStore}), the history {@code GET /api/jobs/{id}/attempts} shows. It reads the workers' reports, not
 * the scheduler's {@code job-status}, because a status event names only a job's latest attempt, and the read model
 * merges a job's quick changes into one write: two attempts a second apart would leave one trace there.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll's attempts are stored in one statement and the poll is acknowledged after it, so its offsets are
 *       committed only then; a report consumed twice is stored once (the first report of an attempt is kept).</li>
 *   <li>The quarantine rule of every consumer: a record that does not parse, breaks a rule ({@link EventRules}) or is
 *       not keyed by its jobId is set aside in {@code jobweaver-quarantine} with its original bytes before its poll is
 *       acknowledged; a report the database refuses for good is split out ({@link Bisection}) and set aside, and the
 *       reports beside it are stored. A transient failure is retried with back-off until it succeeds.</li>
 *   <li>It has its own consumer group, so the history never holds back the scheduler, which consumes the same
 *       topics.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
public class JobAttemptConsumer {

    private static final Logger LOG = Logger.getLogger(JobAttemptConsumer.class);
    /** As the read model's consumer: a database outage is waited out, since a channel that gave up stays down. */
    private static final UnaryOperator<Uni<Void>> RETRY_TRANSIENT = Bisection.retryForever(Duration.ofMillis(200),
            Duration.ofSeconds(10));

    /** A usable report and the record it came from. */
    record AttemptRecord(JobAttemptStore.Attempt attempt, RecordOrigin origin) {
    }

    /** A record that is no usable report, and why. */
    private record Unusable(RecordOrigin origin, QuarantineReason reason, String detail) {
    }

    private final JobAttemptStore store;
    private final Quarantine quarantine;
    private final ObjectMapper mapper;
    private final Bisection<AttemptRecord> bisection;

    public JobAttemptConsumer(JobAttemptStore store, Quarantine quarantine, ObjectMapper mapper) {
        this.store = store;
        this.quarantine = quarantine;
        this.mapper = mapper;
        this.bisection = new Bisection<>(this::round, RETRY_TRANSIENT,
                (item, failure) -> quarantine.send(item.origin(), failure));
    }

    /** The quarantine counters of the consumed topics exist, at zero, before their first bad record. */
    void registerCounters(@Observes StartupEvent start) {
        quarantine.register(Topics.JOB_COMPLETED);
        quarantine.register(Topics.JOB_FAILED);
    }

    @Incoming(Channels.JOB_ATTEMPTS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        List<Unusable> unusable = new ArrayList<>();
        List<AttemptRecord> attempts = read(batch.getRecords(), unusable);
        Uni<Void> done = setAside(unusable)
                .chain(() -> bisection.apply(attempts))
                .chain(() -> Uni.createFrom().completionStage(batch::ack))
                .onFailure().call(failure -> {
                    LOG.errorf(failure, "could not store %d attempt(s) or quarantine %d record(s); the channel stops"
                            + " here and the records are consumed again from the last committed offset",
                            attempts.size(), unusable.size());
                    return Uni.createFrom().completionStage(() -> batch.nack(failure))
                            .onFailure().recoverWithNull();
                });
        return VertxContexts.backToCaller(done);
    }

    /** One statement of {@code attempts}; the unit {@link #bisection} splits. */
    private Uni<Void> round(List<AttemptRecord> attempts) {
        return store.recordAll(attempts.stream().map(AttemptRecord::attempt).toList()).replaceWithVoid();
    }

    /** Publishes every unusable record of a poll to the quarantine; completes once Kafka acknowledged them all. */
    private Uni<Void> setAside(List<Unusable> unusable) {
        if (unusable.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(unusable)
                .onItem().transformToUniAndConcatenate(bad -> RETRY_TRANSIENT.apply(Uni.createFrom().deferred(
                        () -> quarantine.send(bad.origin(), bad.reason(), bad.detail()))))
                .collect().last()
                .replaceWithVoid();
    }

    /** The usable reports of a poll, in order; the records that are none go to {@code unusable}. */
    private List<AttemptRecord> read(List<KafkaRecord<String, byte[]>> records, List<Unusable> unusable) {
        List<AttemptRecord> attempts = new ArrayList<>(records.size());
        for (KafkaRecord<String, byte[]> record : records) {
            byte[] value = record.getPayload();
            RecordOrigin origin = RecordOrigin.of(record, value);
            JobAttemptStore.Attempt attempt;
            if (Topics.JOB_COMPLETED.equals(record.getTopic())) {
                switch (EventReader.read(mapper, value, JobCompletedEvent.class, EventRules::problem)) {
                    case EventReader.Read.Bad<JobCompletedEvent> bad -> {
                        unusable.add(new Unusable(origin, bad.reason(), bad.detail()));
                        continue;
                    }
                    case EventReader.Read.Ok<JobCompletedEvent> ok -> attempt = completed(ok.event());
                }
            } else {
                switch (EventReader.read(mapper, value, JobFailedEvent.class, EventRules::problem)) {
                    case EventReader.Read.Bad<JobFailedEvent> bad -> {
                        unusable.add(new Unusable(origin, bad.reason(), bad.detail()));
                        continue;
                    }
                    case EventReader.Read.Ok<JobFailedEvent> ok -> attempt = failed(ok.event());
                }
            }
            String keyProblem = EventRules.keyProblem(record.getKey(), attempt.jobId());
            if (keyProblem != null) {
                unusable.add(new Unusable(origin, QuarantineReason.INVALID, keyProblem));
                continue;
            }
            attempts.add(new AttemptRecord(attempt, origin));
        }
        return attempts;
    }

    private static JobAttemptStore.Attempt completed(JobCompletedEvent e) {
        return attempt(e.jobId(), e.attempt(), JobAttemptStore.Outcome.COMPLETED, e.startedAt(), e.finishedAt(), null,
                e.workerId());
    }

    private static JobAttemptStore.Attempt failed(JobFailedEvent e) {
        return attempt(e.jobId(), e.attempt(), JobAttemptStore.Outcome.FAILED, e.startedAt(), e.failedAt(),
                e.errorMessage(), e.workerId());
    }

    private static JobAttemptStore.Attempt attempt(UUID jobId, int attempt, JobAttemptStore.Outcome outcome,
                                                   java.time.Instant startedAt, java.time.Instant finishedAt,
                                                   String error, String workerId) {
        return new JobAttemptStore.Attempt(jobId, attempt, outcome, startedAt, finishedAt, error, workerId);
    }
}
