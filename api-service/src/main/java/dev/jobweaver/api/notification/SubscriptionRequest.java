package dev.jobweaver.api.notification;

import dev.jobweaver.common.job.JobType;
import java.net.URI;
import java.util.List;
import java.util.UUID;

/**
 * A valid subscription request: exactly one of the targets is set.
 *
 * @param events distinct, in the order given
 * @param url absolute http or https, at most 2048 characters; its destination is judged by {@link WebhookDestinations}
 */
record SubscriptionRequest(UUID jobId, UUID scheduleId, UUID workflowId, JobType jobType,
                                  List<NotificationEvent> events, URI url) {
}
