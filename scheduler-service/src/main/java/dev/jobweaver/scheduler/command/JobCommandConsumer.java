package dev.jobweaver.scheduler.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.scheduler.command.JobCommandService.Received;
import dev.jobweaver.scheduler.observability.JobTracing;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code job-commands}, one poll at a time (batch mode): a poll's commands are applied in one transaction
 * ({@link JobCommandService#applyAll}) and its records acknowledged only after the commit and Kafka's
 * acknowledgement of the events it published.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A record that is no usable {@link JobCommandEvent} ({@link EventRules}, keyed by its jobId) is quarantined
 *       before any of it reaches SQL; a usable one the database refuses for good is found by splitting the poll
 *       ({@link BatchIntake}) and quarantined alone, while the commands beside it are applied, in order. The
 *       poll is acknowledged only after every record of it was applied or quarantined.</li>
 *   <li>Database or Kafka failures are retried with backoff: the partition waits, nothing is skipped.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * The channel calls {@link #consume} on its event loop, one poll at a time; the round runs as
 * {@link BatchIntake} says.
 */
@ApplicationScoped
@Startup // its quarantine counters exist, at zero, from the start, not from the first bad record
public class JobCommandConsumer {

    private final BatchIntake<Received> intake;

    public JobCommandConsumer(JobCommandService commands, Quarantine quarantine, ObjectMapper mapper) {
        this.intake = new BatchIntake<>(Channels.JOB_COMMANDS_IN, quarantine, BatchIntake.events(mapper,
                JobCommandEvent.class, EventRules::problem, (key, event) -> EventRules.keyProblem(key, event.jobId()),
                (record, command) -> new Received(command, JobTracing.incoming(record))),
                received -> commands.applyAll(received).replaceWithVoid());
        quarantine.register(Topics.JOB_COMMANDS);
    }

    @Incoming(Channels.JOB_COMMANDS_IN)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return intake.consume(batch);
    }
}
