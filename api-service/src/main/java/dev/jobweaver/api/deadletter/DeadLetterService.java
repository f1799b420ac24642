package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.api.job.PublishFailedException;
import dev.jobweaver.api.job.JobCommandService;
import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.event.DeadLetterEvent;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The dead-letter review: stores what the scheduler dead-letters, lists and reads it, and requeues (a {@code REQUEUE}
 * on {@code job-commands}) or discards it. Called on a Vert.x event loop; the sessions and transactions are Hibernate
 * Reactive's (Panache), opened on that context, and the commands' acknowledgements come back on it.
 *
 * <p>A requeue publishes first and commits after: its row is locked, Kafka acknowledges the command, then the row
 * becomes {@code REQUEUED}. A command Kafka did not take rolls the row back to {@code OPEN}, so no row is ever
 * {@code REQUEUED} without its command. The reverse gap (the command sent, the commit lost) leaves the row
 * {@code OPEN} while the job runs again; a repeated requeue then sends a command the scheduler ignores (the job is no
 * longer {@code FAILED} from the failure the command names) and records the requeue. Every command names its dead
 * letter's {@code failedAt}, so neither a repeated requeue nor Kafka's redelivery of one requeues a later failure.
 */
@ApplicationScoped
public class DeadLetterService {

    /** What a review of one dead letter came to. */
    public sealed interface Outcome {
    }

    /** Done: the dead letter as it is now. */
    public record Done(StoredDeadLetter deadLetter) implements Outcome {
    }

    /** No dead letter has this job id. */
    public record Missing() implements Outcome {
    }

    /** The dead letter is not {@code OPEN}; nothing changed. */
    public record NotOpen(StoredDeadLetter deadLetter) implements Outcome {
    }

    /**
     * What a bulk requeue did.
     *
     * @param requeued the jobs requeued, newest failure first
     * @param skipped the workflow nodes' jobs the filter matched, left {@code OPEN}
     * @param unacknowledged the jobs whose command Kafka did not take in time, left {@code OPEN}
     */
    public record Bulk(List<UUID> requeued, long skipped, List<UUID> unacknowledged) {
    }

    @Inject DeadLetterRepository deadLetters;
    @Inject DeadLetterStatements statements;
    @Inject JobCommandService commands;
    @Inject DeadLetterMetrics metrics;
    @Inject DeadLetterConfig config;

    /** Stores or reopens the dead letters of one poll, in one transaction, and counts what each did. */
    @WithSpan("receive dead letters")
    public Uni<Void> receive(List<DeadLetterEvent> events) {
        return statements.apply(events).invoke(applied -> {
            metrics.received(DeadLetterMetrics.Received.OPENED, applied.opened());
            metrics.received(DeadLetterMetrics.Received.UNKNOWN_JOB, applied.unknownJobs());
            metrics.received(DeadLetterMetrics.Received.REPEATED,
                    events.size() - applied.opened() - applied.unknownJobs());
        }).replaceWithVoid();
    }

    /** A page of the dead letters {@code filter} covers, newest failure first. */
    @WithSpan("list dead letters")
    public Uni<Slice<StoredDeadLetter>> list(DeadLetterRepository.Filter filter, int page, int size) {
        return Panache.withSession(() -> Slice.read(deadLetters.page(filter, page, size),
                () -> deadLetters.count(filter), StoredDeadLetter::of));
    }

    /** The dead letter of {@code jobId}, or null. */
    @WithSpan("find dead letter")
    public Uni<StoredDeadLetter> find(UUID jobId) {
        return Panache.withSession(() -> deadLetters.findById(jobId))
                .map(found -> found == null ? null : StoredDeadLetter.of(found));
    }

    /**
     * Requeues an {@code OPEN} dead letter: publishes its {@code REQUEUE} (with
     * {@code payload} and {@code maxRetryCount} when not null, already checked against the job's type), then marks it
     * {@code REQUEUED} and writes the new payload into the jobs read model, which shows it from then on. Fails with {@link PublishFailedException}, the row unchanged, when Kafka did not acknowledge
     * the command in time.
     */
    @WithSpan("requeue dead letter")
    public Uni<Outcome> requeue(UUID jobId, JsonNode payload, Integer maxRetryCount) {
        Instant now = now();
        return Panache.withTransaction(() -> deadLetters.findForUpdate(jobId).chain(row -> {
            Outcome refused = refusal(row);
            if (refused != null) {
                return Uni.createFrom().item(refused);
            }
            Uni<Integer> payloadShown = payload == null ? Uni.createFrom().item(0)
                    : deadLetters.replaceJobPayload(row.jobId, payload.toString());
            return commands.requeue(row.jobId, row.traceId, payload, maxRetryCount, row.failedAt)
                    .call(() -> payloadShown)
                    .map(sent -> (Outcome) new Done(StoredDeadLetter.of(requeued(row, now))));
        })).invoke(outcome -> {
            if (outcome instanceof Done) {
                metrics.requeued(1);
            }
        });
    }

    /**
     * Requeues at most {@code limit} of the {@code OPEN} dead letters {@code filter} covers, newest failure first,
     * leaving workflow nodes' jobs as they are (counted as skipped). Each one whose command Kafka acknowledged is
     * marked {@code REQUEUED}; one whose command it did not stays {@code OPEN} and is reported.
     */
    @WithSpan("requeue dead letters")
    public Uni<Bulk> requeueAll(DeadLetterRepository.Filter filter, int limit) {
        Instant now = now();
        return Panache.withTransaction(() -> deadLetters.requeuableForUpdate(filter, limit).chain(rows ->
                sendAll(rows).chain(acknowledged -> {
                    List<UUID> requeued = new ArrayList<>();
                    List<UUID> unacknowledged = new ArrayList<>();
                    for (DeadLetter row : rows) {
                        if (acknowledged.contains(row.jobId)) {
                            requeued(row, now);
                            requeued.add(row.jobId);
                        } else {
                            unacknowledged.add(row.jobId);
                        }
                    }
                    return deadLetters.countNodes(filter)
                            .map(skipped -> new Bulk(List.copyOf(requeued), skipped, List.copyOf(unacknowledged)));
                }))).invoke(bulk -> metrics.requeued(bulk.requeued().size()));
    }

    /** Discards an {@code OPEN} dead letter: kept for audit with its reason, never run again. */
    @WithSpan("discard dead letter")
    public Uni<Outcome> discard(UUID jobId, String reason) {
        Instant now = now();
        return Panache.withTransaction(() -> deadLetters.findForUpdate(jobId).map(row -> {
            Outcome refused = refusal(row);
            if (refused != null) {
                return refused;
            }
            row.state = DeadLetterState.DISCARDED;
            row.discardedAt = now;
            row.discardReason = reason;
            row.updatedAt = now;
            return (Outcome) new Done(StoredDeadLetter.of(row));
        })).invoke(outcome -> {
            if (outcome instanceof Done) {
                metrics.discarded();
            }
        });
    }

    /** Why {@code row} cannot be reviewed, or null when it can. */
    private static Outcome refusal(DeadLetter row) {
        if (row == null) {
            return new Missing();
        }
        if (row.state != DeadLetterState.OPEN) {
            return new NotOpen(StoredDeadLetter.of(row));
        }
        return null;
    }

    /**
     * Publishes the {@code REQUEUE} of every row, at most {@code requeue-concurrency} in flight; the jobs Kafka
     * acknowledged. Only a command Kafka did not take is left out; any other failure fails the whole request.
     */
    private Uni<Set<UUID>> sendAll(List<DeadLetter> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return Multi.createFrom().iterable(rows)
                .onItem().transformToUni(row -> commands.requeue(row.jobId, row.traceId, null, null, row.failedAt)
                        .map(sent -> row.jobId)
                        .onFailure(PublishFailedException.class).recoverWithItem((UUID) null))
                .merge(Math.max(1, config.requeueConcurrency()))
                .filter(id -> id != null)
                .collect().in(HashSet::new, Set::add);
    }

    private static DeadLetter requeued(DeadLetter row, Instant now) {
        row.state = DeadLetterState.REQUEUED;
        row.requeuedAt = now;
        row.requeueCount++;
        row.updatedAt = now;
        return row;
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
