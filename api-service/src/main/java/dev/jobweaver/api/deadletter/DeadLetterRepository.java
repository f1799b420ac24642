package dev.jobweaver.api.deadletter;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Page;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The {@link DeadLetter} entities, with Hibernate Reactive Panache. Every method runs in the caller's reactive session
 * ({@code Panache.withSession} or {@code Panache.withTransaction}) on its Vert.x context.
 */
@ApplicationScoped
public class DeadLetterRepository implements PanacheRepositoryBase<DeadLetter, UUID> {

    /** Newest failure first, the job id breaking ties, as the list's indexes are ordered. */
    private static final Sort NEWEST_FIRST = Sort.descending("failedAt", "jobId");

    /**
     * Which dead letters a list or a bulk requeue covers; every field given must match, a null one matches all.
     *
     * @param states one of these states (never empty)
     * @param failedAfter failed at or after this instant
     * @param failedBefore failed before this instant
     */
    public record Filter(Set<DeadLetterState> states, String tenant, String jobType, Instant failedAfter,
                         Instant failedBefore) {
    }

    /** The dead letter of {@code jobId}, its row locked until the transaction ends; null when there is none. */
    /**
     * Writes a requeue's new payload into the jobs read model, in the caller's transaction: the scheduler's status
     * events carry no payload, so {@code GET /api/jobs/{id}} would go on showing the one that failed. The rows changed.
     * The text cast first: a parameter PostgreSQL infers as jsonb gets a Java string encoded as a JSON string.
     */
    public Uni<Integer> replaceJobPayload(UUID jobId, String payloadJson) {
        return getSession().chain(session -> session
                .createNativeQuery("UPDATE jobs SET instruction = cast(cast(:payload as text) as jsonb)"
                        + " WHERE id = :id")
                .setParameter("payload", payloadJson)
                .setParameter("id", jobId)
                .executeUpdate());
    }

    public Uni<DeadLetter> findForUpdate(UUID jobId) {
        return find("jobId = ?1", jobId).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
    }

    /** One page of the dead letters {@code filter} covers, newest failure first. */
    public Uni<List<DeadLetter>> page(Filter filter, int page, int size) {
        Query query = query(filter);
        return find(query.where, NEWEST_FIRST, query.parameters).page(Page.of(page, size)).list();
    }

    /** How many dead letters {@code filter} covers. */
    public Uni<Long> count(Filter filter) {
        Query query = query(filter);
        return count(query.where, query.parameters);
    }

    /**
     * At most {@code limit} dead letters {@code filter} covers that may be requeued (not a workflow node's), newest
     * failure first, locked until the transaction ends. A row another requeue or discard holds is waited for, and
     * left out if that changed its state.
     */
    public Uni<List<DeadLetter>> requeuableForUpdate(Filter filter, int limit) {
        Query query = query(filter);
        return find(query.where + " and workflowRunId is null", NEWEST_FIRST, query.parameters)
                .withLock(LockModeType.PESSIMISTIC_WRITE).page(Page.ofSize(limit)).list();
    }

    /** How many of the dead letters {@code filter} covers are workflow nodes' jobs, which are never requeued alone. */
    public Uni<Long> countNodes(Filter filter) {
        Query query = query(filter);
        return count(query.where + " and workflowRunId is not null", query.parameters);
    }

    /** A filter as a where clause over the entity and its parameters. */
    private record Query(String where, Parameters parameters) {
    }

    private static Query query(Filter filter) {
        List<String> clauses = new ArrayList<>();
        Parameters parameters = Parameters.with("states", List.copyOf(filter.states()));
        clauses.add("state in :states");
        where(clauses, parameters, "tenant = :tenant", "tenant", filter.tenant());
        where(clauses, parameters, "jobType = :jobType", "jobType", filter.jobType());
        where(clauses, parameters, "failedAt >= :failedAfter", "failedAfter", filter.failedAfter());
        where(clauses, parameters, "failedAt < :failedBefore", "failedBefore", filter.failedBefore());
        return new Query(String.join(" and ", clauses), parameters);
    }

    /** Adds {@code clause}, binding {@code value} as {@code name}, unless the filter leaves it out (null). */
    private static void where(List<String> clauses, Parameters parameters, String clause, String name, Object value) {
        if (value != null) {
            clauses.add(clause);
            parameters.and(name, value);
        }
    }
}
