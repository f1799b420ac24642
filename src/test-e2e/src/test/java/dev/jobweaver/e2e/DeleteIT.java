package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Stores;
import dev.jobweaver.e2e.support.TopicReader;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Deleting jobs on the packaged services: a finished job leaves every service's store; an unfinished one stays. */
@HealthyPlatform
class DeleteIT {

    @Test
    void aFinishedJobIsRemovedFromEveryStore() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(LOG);
        api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(30));
        assertThat(Stores.rowsOf(id)).as("rows in the API, scheduler and worker stores").containsExactly(1, 1, 1);

        JobWeaverClient.Answer deleted = api.delete(id);

        assertThat(deleted.status()).isEqualTo(204);
        assertThat(api.get("/api/jobs/" + id).status()).isEqualTo(404);
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!Stores.rowsOf(id).equals(List.of(0, 0, 0)) && System.nanoTime() < deadline) {
            E2ePlatform.awaitQuietly(100);
        }
        assertThat(Stores.rowsOf(id)).as("rows in the API, scheduler and worker stores").containsExactly(0, 0, 0);
        List<ConsumerRecord<String, String>> statuses =
                TopicReader.read("job-status", id.toString()::equals, Duration.ofSeconds(1));
        assertThat(statuses.getLast().value()).as("the job's last job-status record is a tombstone").isNull();
        assertThat(api.delete(id).status()).isEqualTo(404);
    }

    @Test
    void anUnfinishedJobIsNotDeletedUntilItEnds() {
        JobWeaverClient api = E2ePlatform.api();
        UUID id = api.submitAccepted(
                "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"later\"}]},"
                        + "\"delayMs\":60000}");

        JobWeaverClient.Answer refused = api.delete(id);
        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.body().path("errorCode").asText()).isEqualTo("API.JOB_NOT_FINISHED");
        assertThat(refused.body().path("message").asText()).contains("PENDING");
        assertThat(api.job(id).path("status").asText()).isEqualTo("PENDING");

        assertThat(api.cancel(id).status()).isEqualTo(202);
        api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(30));
        assertThat(api.delete(id).status()).isEqualTo(204);
        assertThat(api.get("/api/jobs/" + id).status()).isEqualTo(404);
    }

    private static final String LOG =
            "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"delete me\"}]}}";
}
