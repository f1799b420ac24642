package dev.jobweaver.worker.command;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.EventReader;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.quarantine.RecordOrigin;
import dev.jobweaver.worker.run.RecordTraces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Instant;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Receives {@code worker-commands}, the scheduler's cancels and deletes of jobs, and applies each ({@link JobCommands}).
 *
 * <p>Every worker reads the whole topic: its consumer group is its own, named anew at each start, and it commits
 * nothing; each start reads the last {@code jobweaver.worker.commands.window} again ({@link CommandWindow}). A value
 * that is no usable {@link JobCommandEvent} (not JSON, breaking {@link EventRules#problem(JobCommandEvent)}, not keyed
 * by its jobId, or a {@code REQUEUE}, which the scheduler never sends here) is set aside in
 * {@code jobweaver-quarantine} with its original bytes, as on {@code run-job}, and the next record is read: nothing
 * blocks the topic. A requeued job reaches the workers as its next attempt on {@code run-job}, a run with an eventId of
 * its own.
 *
 * <p>Records are handled one at a time, in order, on the channel's event loop; nothing here blocks it.
 */
@ApplicationScoped
public class WorkerCommandConsumer {

    private static final Logger LOG = Logger.getLogger(WorkerCommandConsumer.class);
    /** Why a {@code REQUEUE} on {@code worker-commands} is set aside. */
    static final String NOT_FOR_WORKERS = "a REQUEUE is applied by the scheduler alone; worker-commands carries CANCEL"
            + " and DELETE";

    @Inject JobCommands commands;
    @Inject @Identifier(CommandWindow.NAME) CommandWindow window;
    @Inject Quarantine quarantine;
    @Inject ObjectMapper mapper;
    @Inject Tracer tracer;

    /** The quarantined counters of worker-commands exist from the start, at zero, not from the first bad record. */
    void registerQuarantineCounters(@Observes StartupEvent started) {
        quarantine.register(Topics.WORKER_COMMANDS);
    }

    @Incoming(Channels.WORKER_COMMANDS_IN)
    public Uni<Void> onCommand(Message<byte[]> message) {
        IncomingKafkaRecordMetadata<?, ?> kafka = message.getMetadata(IncomingKafkaRecordMetadata.class).orElse(null);
        return Uni.createFrom().deferred(() -> handle(message, kafka))
                .onTermination().invoke(() -> {
                    if (kafka != null) {
                        window.handled(new TopicPartition(kafka.getTopic(), kafka.getPartition()), kafka.getOffset());
                    }
                })
                .onItemOrFailure().transformToUni((ignored, failure) -> {
                    if (failure != null) {
                        LOG.warnf(failure, "a worker-commands record could not be handled; it is skipped");
                    }
                    return Uni.createFrom().completionStage(message.ack());
                });
    }

    private Uni<Void> handle(Message<byte[]> message, IncomingKafkaRecordMetadata<?, ?> kafka) {
        RecordOrigin origin = RecordOrigin.of(message);
        return switch (EventReader.read(mapper, message.getPayload(), JobCommandEvent.class, EventRules::problem)) {
            case EventReader.Read.Ok<JobCommandEvent>(JobCommandEvent command) -> apply(command, origin, message, kafka);
            case EventReader.Read.Bad<JobCommandEvent>(QuarantineReason reason, String detail) ->
                    setAside(origin, reason, detail);
        };
    }

    private Uni<Void> apply(JobCommandEvent command, RecordOrigin origin, Message<byte[]> message,
            IncomingKafkaRecordMetadata<?, ?> kafka) {
        String keyProblem = EventRules.keyProblem(origin.key(), command.jobId());
        if (keyProblem != null) {
            return setAside(origin, QuarantineReason.INVALID, keyProblem);
        }
        if (command.command() == JobCommand.REQUEUE) {
            // Remembered like a cancel, it would stop the job's runs, the requeued one's too.
            return setAside(origin, QuarantineReason.INVALID, NOT_FOR_WORKERS);
        }
        Span span = tracer.spanBuilder("apply job command")
                .setParent(RecordTraces.parentContext(message))
                .setAttribute("jobweaver.job.id", command.jobId().toString())
                .setAttribute("jobweaver.command", command.command().name())
                .startSpan();
        // The record's time, not the command's own: the window is read back by record times.
        Instant at = kafka != null && kafka.getTimestamp() != null ? kafka.getTimestamp() : command.requestedAt();
        try (Scope ignored = span.makeCurrent()) {
            return commands.apply(command, at, span).onTermination().invoke(span::end);
        } catch (RuntimeException e) {
            span.recordException(e);
            span.end();
            throw e;
        }
    }

    /**
     * Publishes the quarantined copy, sent again while Kafka does not acknowledge it (only an unreachable broker refuses
     * it, and then no command arrives either).
     */
    private Uni<Void> setAside(RecordOrigin origin, QuarantineReason reason, String detail) {
        return quarantine.sendUntilTaken(origin, reason, detail);
    }
}
