package dev.jobweaver.api.job.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.DeliveryTestSupport;
import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.StatusEvents;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;

/** Deleting a job deletes its subscriptions and their deliveries with it, and leaves other jobs' subscriptions. */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class JobDeletionStoreTest extends DeliveryTestSupport {

    @Test
    void deletingAJobDeletesItsSubscriptionsAndTheirDeliveries() throws Exception {
        String jobId = Jobs.submitOne();
        String otherJob = Jobs.submitOne();
        String subscription = Subscriptions.subscribe(receiver, "deleted", "jobId", jobId, "COMPLETED");
        String other = Subscriptions.subscribe(receiver, "kept", "jobId", otherJob, "COMPLETED");
        StatusEvents.send(mapper, jobId, JobStatus.COMPLETED, 2, 1, null);
        await().atMost(Duration.ofSeconds(20)).until(() -> receiver.count("deleted", "job.completed") == 1);
        JobCommands.setStatus(jobId, JobStatus.COMPLETED);
        assertThat(JobCommands.rows("deliveries", "subscription_id", subscription)).isEqualTo(1);

        assertThat(JobCommands.delete(jobId).statusCode()).isEqualTo(204);

        assertThat(given().get("/api/subscriptions/" + subscription).statusCode()).isEqualTo(404);
        assertThat(JobCommands.rows("subscriptions", "job_id", jobId)).isZero();
        assertThat(JobCommands.rows("deliveries", "subscription_id", subscription)).isZero();
        assertThat(JobCommands.rows("delivery_attempts", "delivery_id",
                receiver.receivedBy("deleted").getFirst().webhookId())).isZero();
        assertThat(given().get("/api/subscriptions/" + other).statusCode()).isEqualTo(200);
    }
}
