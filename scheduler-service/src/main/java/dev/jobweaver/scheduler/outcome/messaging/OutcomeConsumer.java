package dev.jobweaver.scheduler.outcome.messaging;

import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.job.service.Outcome;
import dev.jobweaver.scheduler.messaging.IncomingRecords;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.outcome.service.OutcomeService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes {@code job-completed} and {@code job-failed}. A record is acknowledged only after its outcome was
 * committed and its events acknowledged by Kafka; database or Kafka failures are retried with backoff, malformed
 * records skipped.
 */
@ApplicationScoped
public class OutcomeConsumer {

    private static final Logger LOG = Logger.getLogger(OutcomeConsumer.class);

    private final IncomingRecords records;
    private final OutcomeService outcomes;

    public OutcomeConsumer(IncomingRecords records, OutcomeService outcomes) {
        this.records = records;
        this.outcomes = outcomes;
    }

    @Incoming(Channels.JOB_COMPLETED_IN)
    public Uni<Void> completed(Message<byte[]> message) {
        var event = records.read(message, JobCompletedEvent.class, e -> problem(e.jobId(), e.attempt()));
        return event.isEmpty()
                ? IncomingRecords.ack(message)
                : apply(message, Outcome.of(event.get()), Topics.JOB_COMPLETED);
    }

    @Incoming(Channels.JOB_FAILED_IN)
    public Uni<Void> failed(Message<byte[]> message) {
        var event = records.read(message, JobFailedEvent.class, e -> problem(e.jobId(), e.attempt()));
        return event.isEmpty()
                ? IncomingRecords.ack(message)
                : apply(message, Outcome.of(event.get()), Topics.JOB_FAILED);
    }

    private Uni<Void> apply(Message<byte[]> message, Outcome outcome, String topic) {
        return outcomes.apply(outcome, topic, JobTracing.incoming(message))
                .onFailure().invoke(e -> JobLog.warn(LOG, outcome.jobId(), null,
                        "could not apply %s outcome of attempt %d, retrying: %s", outcome.kind(), outcome.attempt(),
                        e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely()
                .chain(() -> IncomingRecords.ack(message));
    }

    static String problem(Object jobId, int attempt) {
        if (jobId == null) {
            return "jobId is missing";
        }
        return attempt < 1 ? "attempt must be 1 or more, was " + attempt : null;
    }
}
