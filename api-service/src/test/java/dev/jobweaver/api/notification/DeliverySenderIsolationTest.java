package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.WebhookReceiver.Behaviour;
import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Endpoints that never answer or fail do not hold back another subscriber (profile FastDeliveries: 8 deliveries in
 * flight, 2 per subscription, a 10 s answer timeout).
 */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class DeliverySenderIsolationTest extends DeliveryTestSupport {

    /** The profile's answer timeout: how long the dead endpoint holds each slot it was given. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

    @Test
    void endpointsThatNeverAnswerOrFailDoNotHoldBackAnotherSubscriber() {
        receiver.behave("dead", Behaviour.NEVER);
        receiver.behave("failing", Behaviour.FAIL);
        String deadJob = Jobs.submitOne();
        String failingJob = Jobs.submitOne();
        String healthyJob = Jobs.submitOne();
        String dead = Subscriptions.subscribe(receiver, "dead", "jobId", deadJob, "STARTED", "RETRYING");
        Subscriptions.subscribe(receiver, "failing", "jobId", failingJob, "STARTED", "RETRYING");
        Subscriptions.subscribe(receiver, "healthy", "jobId", healthyJob, "COMPLETED");
        // six deliveries each, more than the 8 slots of the instance together: without a per-subscription bound the
        // dead endpoint alone would hold 6 of them until the answer timeout
        List<JobStatusChangedEvent> changes = new ArrayList<>();
        for (int version = 2; version <= 7; version++) {
            JobStatus status = version % 2 == 0 ? JobStatus.RUNNING : JobStatus.PENDING;
            changes.add(StatusEvents.event(deadJob, status, version, version, null));
            changes.add(StatusEvents.event(failingJob, status, version, version, null));
        }
        StatusEvents.sendAll(mapper, changes);
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.receivedBy("dead").size() >= 2
                && receiver.receivedBy("failing").size() >= 2);

        long started = System.nanoTime();
        StatusEvents.send(mapper, healthyJob, JobStatus.COMPLETED, 2, 1, null);
        await().atMost(ANSWER_TIMEOUT).until(() -> receiver.count("healthy", "job.completed") == 1);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(took).as("the healthy subscriber's delivery, sent while the dead endpoint holds its slots")
                .isLessThan(ANSWER_TIMEOUT.minusSeconds(2));
        assertThat(receiver.receivedBy("dead")).as("the dead endpoint holds its 2 slots, no more").hasSize(2);
        assertThat(Subscriptions.log(dead)).as("the dead endpoint's deliveries are stuck")
                .allMatch(entry -> "PENDING".equals(entry.get("state")));
    }
}
