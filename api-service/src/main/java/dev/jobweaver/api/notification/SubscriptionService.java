package dev.jobweaver.api.notification;

import dev.jobweaver.api.job.JobQueryService;
import dev.jobweaver.api.platform.db.RowNotFoundException;
import dev.jobweaver.api.security.crypto.SealedSecrets;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

/**
 * Subscriptions (Panache, {@link Subscription}): create, read, delete, their delivery log; and the deletes that go with
 * a job's or a schedule's.
 */
@ApplicationScoped
public class SubscriptionService {

    /** Where a URL's host is resolved to judge it: DNS blocks, and never on an event loop. */
    private static final ExecutorService RESOLVER = Executors.newVirtualThreadPerTaskExecutor();

    private static final String ATTEMPTS = """
            select a.deliveryId, d.event, d.jobId, a.attempt, a.attemptedAt, a.status, a.error, a.durationMs, d.state,
                   d.runId
            from DeliveryAttempt a, Delivery d
            where d.id = a.deliveryId and d.subscriptionId = :subscription
            order by a.attemptedAt desc, a.attempt desc""";
    private static final String NOT_ATTEMPTED = """
            select d.id, d.event, d.jobId, d.createdAt, d.state, d.runId from Delivery d
            where d.subscriptionId = :subscription and d.attempts = 0
            order by d.createdAt desc""";

    @Inject JobQueryService jobs;
    @Inject WebhookDestinations destinations;
    @Inject SealedSecrets secrets;

    /** Why deliveries to the request's URL would be refused now, or null; resolves its host off the event loop. */
    public Uni<String> destinationRefusal(SubscriptionRequest request) {
        return Uni.createFrom().item(() -> destinations.subscriptionRefusal(request.url())).runSubscriptionOn(RESOLVER);
    }

    /**
     * Stores a new subscription with a new secret, sealed; a {@link JobNotFoundException} when {@code jobId} names no
     * job, or one of a tenant {@code visible} refuses. The subscription of a job belongs to the job's tenant, the
     * others to {@code tenant}. The answer carries the secret in clear ({@link Subscription#secret}), the one time it
     * is shown.
     */
    @WithSpan("create subscription")
    public Uni<Subscription> create(SubscriptionRequest request, String tenant, Predicate<String> visible) {
        Uni<String> owned = request.jobId() == null ? Uni.createFrom().item(tenant)
                : jobs.find(request.jobId()).map(job -> {
                    if (job == null || !visible.test(job.tenant())) {
                        throw new JobNotFoundException(request.jobId());
                    }
                    return job.tenant();
                });
        return owned.chain(owner -> {
            Subscription subscription = new Subscription();
            subscription.id = UUID.randomUUID();
            subscription.tenant = owner;
            subscription.jobId = request.jobId();
            subscription.scheduleId = request.scheduleId();
            subscription.workflowId = request.workflowId();
            subscription.jobType = request.jobType() == null ? null : request.jobType().name();
            subscription.events = request.events().stream().map(NotificationEvent::wireName).toArray(String[]::new);
            subscription.url = request.url().toString();
            subscription.secret = WebhookSignature.newSecret();
            subscription.sealedSecret = secrets.seal(subscription.secret, subscription.id);
            subscription.createdAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
            return Panache.withTransaction(subscription::persist).replaceWith(subscription);
        });
    }

    /** The subscription, or null. */
    @WithSpan("find subscription")
    public Uni<Subscription> find(UUID id) {
        return Panache.withSession(() -> Subscription.<Subscription>findById(id));
    }

    /** Deletes the subscription and (cascade) its deliveries; false when there was none. */
    @WithSpan("delete subscription")
    public Uni<Boolean> delete(UUID id) {
        return Panache.withTransaction(() -> Subscription.delete("id", id)).map(deleted -> deleted > 0);
    }

    /**
     * The subscription's delivery log, newest first, at most {@code limit} lines: one per attempt, and one (attempt 0)
     * per delivery not attempted yet; null when there is no such subscription.
     */
    @WithSpan("list deliveries")
    public Uni<List<DeliveryLogEntry>> deliveries(UUID id, int limit) {
        return Panache.withSession(() -> Subscription.<Subscription>findById(id).chain(subscription -> {
            if (subscription == null) {
                return Uni.createFrom().nullItem();
            }
            return Panache.getSession().chain(session -> session.createSelectionQuery(ATTEMPTS, Object[].class)
                    .setParameter("subscription", id).setMaxResults(limit).getResultList()
                    .chain(attempts -> session.createSelectionQuery(NOT_ATTEMPTED, Object[].class)
                            .setParameter("subscription", id).setMaxResults(limit).getResultList()
                            .map(waiting -> merged(attempts, waiting, limit))));
        }));
    }

    private static List<DeliveryLogEntry> merged(List<Object[]> attempts, List<Object[]> waiting, int limit) {
        record Dated(Instant at, DeliveryLogEntry entry) {
        }
        List<Dated> all = new ArrayList<>(attempts.size() + waiting.size());
        for (Object[] a : attempts) {
            all.add(new Dated((Instant) a[4], new DeliveryLogEntry((UUID) a[0], (String) a[1], (UUID) a[2],
                    (UUID) a[9], (Integer) a[3], (Instant) a[4], (Integer) a[5], (String) a[6], (Long) a[7],
                    (String) a[8])));
        }
        for (Object[] d : waiting) {
            all.add(new Dated((Instant) d[3], new DeliveryLogEntry((UUID) d[0], (String) d[1], (UUID) d[2],
                    (UUID) d[5], 0, null, null, null, null, (String) d[4])));
        }
        all.sort(Comparator.comparing(Dated::at).reversed());
        return all.stream().limit(limit).map(Dated::entry).toList();
    }

    /**
     * Deletes the subscriptions to a schedule, and so their deliveries, within the caller's Panache transaction (call it
     * inside {@code Panache.withTransaction}, with the schedule's delete); how many.
     */
    public Uni<Long> deleteForSchedule(UUID scheduleId) {
        return Subscription.delete("scheduleId", scheduleId);
    }

    /**
     * The same on {@code transaction}, the connection of a reactive SQL client transaction, for a schedule deleted
     * with plain SQL; how many.
     */
    public static Uni<Integer> deleteForSchedule(SqlClient transaction, UUID scheduleId) {
        return transaction.preparedQuery("DELETE FROM subscriptions WHERE schedule_id = $1")
                .execute(Tuple.of(scheduleId)).map(rows -> rows.rowCount());
    }

    /** {@code jobId} of a subscription request names no job. */
    public static final class JobNotFoundException extends RowNotFoundException {

        public JobNotFoundException(UUID jobId) {
            super("no job with id " + jobId, jobId);
        }
    }
}
