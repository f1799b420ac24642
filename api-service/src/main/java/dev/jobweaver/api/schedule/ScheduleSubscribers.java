package dev.jobweaver.api.schedule;

import dev.jobweaver.api.job.store.SubmissionStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.List;
import java.util.UUID;

/**
 * What the schedules owe those subscribed to them, inside the schedule's own transactions: the webhook subscriptions
 * to a schedule (or to its jobs' type) hear of each job it makes, and end with it. Declared here and implemented by
 * the notifications, which hear schedules, jobs and workflows, so that a schedule need not know who follows it.
 */
public interface ScheduleSubscribers {

    /**
     * Records the SCHEDULED notifications of {@code jobs}, just inserted by schedule runs, on {@code transaction} (the
     * connection that inserted them, so that both commit or neither); how many were recorded. Runs on the caller's
     * Vert.x context and never blocks.
     */
    Uni<Integer> jobsMade(SqlClient transaction, List<SubmissionStore.NewJob> jobs);

    /** After the commit of {@link #jobsMade}: the notifications may be sent at once. Never blocks. */
    void jobsCommitted();

    /**
     * Deletes the subscriptions to the schedule (and their deliveries) in the caller's Hibernate Reactive transaction,
     * the one that deletes the schedule; how many.
     */
    Uni<Long> scheduleDeleted(UUID scheduleId);
}
