package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Stores;
import dev.jobweaver.e2e.support.TopicReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Deleting jobs on the packaged services: a finished job leaves every service's store; an unfinished one stays. A
 * finished job of a tenant with a short retention is purged from the API and the scheduler within a minute after it.
 */
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

    @Test
    void aCompletedJobIsPurgedFromTheApiAndTheSchedulerAfterItsTenantsRetention() {
        JobWeaverClient api = E2ePlatform.api();
        String tenant = "retention-" + UUID.randomUUID().toString().substring(0, 8);
        JobWeaverClient.Answer set = api.put("/api/tenants/" + tenant + "/retention", "{\"completedAfter\":\"PT10S\"}");
        assertThat(set.status()).as(set.body().toString()).isEqualTo(200);
        UUID purged = api.submitAccepted(LOG.replace("}}", "},\"tenant\":\"" + tenant + "\"}"));
        UUID kept = api.submitAccepted(LOG); // tenant default: 7 days
        api.awaitAll(List.of(purged, kept), JobWeaverClient::terminal, Duration.ofSeconds(30));
        assertThat(api.job(purged).path("tenant").asText()).isEqualTo(tenant);
        Instant finishedAt = Instant.parse(api.job(purged).path("finishedAt").asText());
        assertThat(Stores.rowsOf(purged).subList(0, 2)).as("rows in the API and scheduler stores").containsExactly(1, 1);

        // gone within a minute after its retention ended
        Instant deadline = finishedAt.plusSeconds(10).plus(Duration.ofMinutes(1));
        while (api.get("/api/jobs/" + purged).status() != 404 && Instant.now().isBefore(deadline)) {
            E2ePlatform.awaitQuietly(500);
        }
        assertThat(api.get("/api/jobs/" + purged).status()).as("GET after the retention").isEqualTo(404);
        assertThat(Instant.now()).as("not before the retention ended").isAfter(finishedAt.plusSeconds(10));
        while (Stores.rowsOf(purged).get(1) != 0 && Instant.now().isBefore(deadline.plusSeconds(15))) {
            E2ePlatform.awaitQuietly(200);
        }
        assertThat(Stores.rowsOf(purged).subList(0, 2)).as("rows in the API and scheduler stores").containsExactly(0, 0);
        assertThat(api.get("/api/jobs/" + kept).status()).as("a job of a tenant with the default retention")
                .isEqualTo(200);
    }

    private static final String LOG =
            "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"delete me\"}]}}";
}
