package dev.jobweaver.worker.run;

import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.Quarantine;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Receives {@code run-job} records (several Kafka consumers: the channel's {@code concurrency} runs one copy of the
 * channel per consumer) and hands each to the {@link RunDispatcher}.
 *
 * <p>Non-blocking on purpose: it runs on the consumer's event loop and returns as soon as the record's run has a slot
 * on a virtual thread. The value arrives as raw bytes ({@code ByteArrayDeserializer}) and is read by its run
 * ({@link JobRunner}), not on the poll thread or here, so that a record that is no usable event is quarantined with
 * its original bytes. The record is acknowledged (manual acknowledgement, since the method takes a {@link Message}) by
 * its run, after the outcome was stored and acknowledged by Kafka, or after its quarantined copy was.
 */
@ApplicationScoped
public class RunJobConsumer {

    @Inject RunDispatcher dispatcher;
    @Inject Quarantine quarantine;

    /** The quarantined counters of run-job exist from the start, at zero, not from the first bad record. */
    void registerQuarantineCounters(@Observes StartupEvent started) {
        quarantine.register(Topics.RUN_JOB);
    }

    @Incoming(Channels.RUN_JOB_IN)
    public Uni<Void> onRunJob(Message<byte[]> message) {
        return dispatcher.submit(message);
    }
}
