package dev.jobweaver.scheduler.outcome.messaging;

import dev.jobweaver.common.event.JobCompletedEvent;
import dev.jobweaver.common.event.JobFailedEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.job.service.Outcome;
import dev.jobweaver.scheduler.messaging.IncomingRecords;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.outcome.service.OutcomeService.Received;
import dev.jobweaver.scheduler.outcome.service.OutcomeService;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code job-completed} and {@code job-failed}, one poll of a partition at a time (batch mode). A batch's
 * outcomes are applied in one transaction ({@link OutcomeService#applyAll}) and its records acknowledged only after
 * the commit and Kafka's acknowledgement of the events it published; database or Kafka failures are retried with
 * backoff (the partition waits, nothing is lost), malformed records skipped.
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
    public Uni<Void> completed(KafkaRecordBatch<String, byte[]> batch) {
        return apply(batch, JobCompletedEvent.class, e -> problem(e.jobId(), e.attempt()), Outcome::of,
                Topics.JOB_COMPLETED);
    }

    @Incoming(Channels.JOB_FAILED_IN)
    public Uni<Void> failed(KafkaRecordBatch<String, byte[]> batch) {
        return apply(batch, JobFailedEvent.class, e -> problem(e.jobId(), e.attempt()), Outcome::of,
                Topics.JOB_FAILED);
    }

    private <T> Uni<Void> apply(KafkaRecordBatch<String, byte[]> batch, Class<T> type, Function<T, String> problem,
                                Function<T, Outcome> toOutcome, String topic) {
        List<Received> received = new ArrayList<>();
        for (KafkaRecord<String, byte[]> record : batch.getRecords()) {
            records.read(record, type, problem).ifPresent(event -> received.add(
                    new Received(toOutcome.apply(event), topic, JobTracing.incoming(record))));
        }
        return outcomes.applyAll(received)
                .onFailure().invoke(e -> LOG.warnf("could not apply %d %s outcome(s), retrying: %s", received.size(),
                        topic, e.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely()
                .chain(() -> IncomingRecords.ack(batch));
    }

    static String problem(Object jobId, int attempt) {
        if (jobId == null) {
            return "jobId is missing";
        }
        return attempt < 1 ? "attempt must be 1 or more, was " + attempt : null;
    }
}
