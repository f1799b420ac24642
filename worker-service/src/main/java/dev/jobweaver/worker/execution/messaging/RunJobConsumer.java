package dev.jobweaver.worker.execution.messaging;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.worker.execution.service.RunDispatcher;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Receives {@code run-job} records (several Kafka consumers: the channel's {@code concurrency} runs one copy of the channel per consumer) and hands each to the
 * {@link RunDispatcher}.
 *
 * <p>Non-blocking on purpose: it runs on the consumer's event loop and returns as soon as the record's run has a slot
 * on a virtual thread. The record is acknowledged (manual acknowledgement, since the method takes a {@link Message})
 * by its run, after the outcome was stored and acknowledged by Kafka.
 */
@ApplicationScoped
public class RunJobConsumer {

    private final RunDispatcher dispatcher;

    public RunJobConsumer(RunDispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    @Incoming(Channels.RUN_JOB_IN)
    public Uni<Void> onRunJob(Message<RunJobEvent> message) {
        return dispatcher.submit(message);
    }
}
