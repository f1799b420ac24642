package dev.jobweaver.api.notification;

import dev.jobweaver.api.job.store.SubmissionStore;
import dev.jobweaver.api.schedule.ScheduleSubscribers;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.UUID;

/** The subscriptions' side of a schedule's transactions: its jobs' SCHEDULED deliveries, and its end. */
@ApplicationScoped
class ScheduleNotifications implements ScheduleSubscribers {

    private final DeliveryIntake deliveries;
    private final SubscriptionService subscriptions;

    ScheduleNotifications(DeliveryIntake deliveries, SubscriptionService subscriptions) {
        this.deliveries = deliveries;
        this.subscriptions = subscriptions;
    }

    @Override
    public Uni<Integer> jobsMade(SqlClient transaction, List<SubmissionStore.NewJob> jobs) {
        return deliveries.scheduled(transaction, jobs.stream().map(job -> new DeliveryStore.ScheduledJob(job.id(),
                job.type(), job.origin().scheduleId(), job.origin().scheduledFor(), job.traceId())).toList());
    }

    @Override
    public void jobsCommitted() {
        deliveries.wake();
    }

    @Override
    public Uni<Long> scheduleDeleted(UUID scheduleId) {
        return subscriptions.deleteForSchedule(scheduleId);
    }
}
