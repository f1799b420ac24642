package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Which job-status change is which notification. */
class NotificationEventTest {

    @Test
    void statusesMapToTheirEvents() {
        assertThat(NotificationEvent.of(change(JobStatus.RUNNING, 0))).isEqualTo(NotificationEvent.STARTED);
        assertThat(NotificationEvent.of(change(JobStatus.PENDING, 1))).isEqualTo(NotificationEvent.RETRYING);
        assertThat(NotificationEvent.of(change(JobStatus.COMPLETED, 0))).isEqualTo(NotificationEvent.COMPLETED);
        assertThat(NotificationEvent.of(change(JobStatus.FAILED, 2))).isEqualTo(NotificationEvent.FAILED);
        assertThat(NotificationEvent.of(change(JobStatus.CANCELLED, 0))).isEqualTo(NotificationEvent.CANCELLED);
    }

    @Test
    void aFirstPendingAndARejectionNotifyNothing() {
        assertThat(NotificationEvent.of(change(JobStatus.PENDING, 0))).isNull();
        assertThat(NotificationEvent.of(change(JobStatus.REJECTED, 0))).isNull();
    }

    @Test
    void theBodyTypeIsJobDotTheLowerCaseEvent() {
        assertThat(NotificationEvent.COMPLETED.type()).isEqualTo("job.completed");
        assertThat(NotificationEvent.RETRYING.type()).isEqualTo("job.retrying");
    }

    private static JobStatusChangedEvent change(JobStatus status, int retryCount) {
        return new JobStatusChangedEvent(UUID.randomUUID(), status, 3, retryCount + 1, retryCount, 3, null, null,
                "0af7651916cd43dd8448eb211c80319c", Instant.now(), null, null);
    }
}
