package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.event.EventRules;
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
 * Keeps every job the scheduler dead-letters on {@code job-dead-letter} for review ({@link DeadLetterService#receive}):
 * a new job's dead letter is stored {@code OPEN}, a newer failure of a stored one (the job was requeued and failed
 * again) reopens it, an older or equal one changes nothing.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A poll's dead letters are stored in one transaction and the poll is acknowledged after its commit, so its
 *       offsets are committed only then; a crash before consumes them again, which changes nothing more (a failure
 *       not newer than the stored one is ignored).</li>
 *   <li>The quarantine rule ({@link BatchIntake}): a record that does not parse, breaks a rule ({@link EventRules})
 *       or is not keyed by its jobId is set aside in {@code jobweaver-quarantine} with its original bytes; a dead
 *       letter the database refuses for good is split out and set aside, and the ones beside it are stored. A
 *       transient failure is retried with back-off until it succeeds, never skipped.</li>
 * </ul>
 * Polls are taken one at a time (the method's {@code Uni}), on the consumer's Vert.x event loop.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class DeadLetterConsumer {

    private final BatchIntake<DeadLetterEvent> intake;

    public DeadLetterConsumer(DeadLetterService deadLetters, Quarantine quarantine, ObjectMapper mapper) {
        // keyed by another job, a dead letter could overtake that job's dead letters
        this.intake = new BatchIntake<>(Channels.JOB_DEAD_LETTER_IN, quarantine, BatchIntake.events(mapper,
                DeadLetterEvent.class, EventRules::problem, (key, event) -> EventRules.keyProblem(key, event.jobId())),
                deadLetters::receive);
        quarantine.register(Topics.JOB_DEAD_LETTER);
    }

    @Incoming(Channels.JOB_DEAD_LETTER_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
