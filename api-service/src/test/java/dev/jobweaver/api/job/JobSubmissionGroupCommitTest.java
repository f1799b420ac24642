package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Concurrent submissions share their database statements (group commit), and still each one is stored, published
 * exactly once with its own trace context, cleared from the outbox and answered with its own job.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class JobSubmissionGroupCommitTest {

    private static final int IN_FLIGHT = 64;

    @TestHTTPResource("/api/jobs")
    URI jobs;

    @Inject
    MeterRegistry registry;

    @Test
    void concurrentSubmissionsAreGroupedAndEachIsStoredPublishedAndAnswered() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long groupsBefore = groupsStored();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < IN_FLIGHT * 3; i++) {
                calls.add(client.sendAsync(HttpRequest.newBuilder(jobs)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(Jobs.VALID)).build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            Map<String, String> traceOfJob = new HashMap<>();
            for (CompletableFuture<HttpResponse<String>> call : calls) {
                HttpResponse<String> response = call.get();
                assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
                JsonPath body = new JsonPath(response.body());
                String jobId = body.getString("jobId");
                assertThat(response.headers().firstValue("Location")).hasValueSatisfying(
                        location -> assertThat(location).endsWith("/api/jobs/" + jobId));
                traceOfJob.put(jobId, body.getString("traceId"));
            }
            assertThat(traceOfJob).as("one distinct job per request").hasSize(calls.size());
            assertThat(traceOfJob.values()).as("one trace per job").doesNotHaveDuplicates();

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(seen -> seen.stream()
                    .map(ConsumerRecord::key).toList().containsAll(traceOfJob.keySet()), Duration.ofSeconds(30));
            for (Map.Entry<String, String> job : traceOfJob.entrySet()) {
                List<ConsumerRecord<String, byte[]>> mine = records.stream()
                        .filter(r -> job.getKey().equals(r.key())).toList();
                assertThat(mine).as("job-created records of %s", job.getKey()).hasSize(1);
                assertThat(KafkaProbe.header(mine.getFirst(), Headers.TRACEPARENT))
                        .startsWith("00-" + job.getValue() + "-");
            }
            assertThat(countWhere("SELECT count(*) FROM jobs WHERE status = 'PENDING' AND id = ANY(?)",
                    traceOfJob.keySet())).isEqualTo(calls.size());
            // The 202s do not wait for the outbox delete, which follows them at once.
            await("outbox rows removed once Kafka acknowledged").atMost(Duration.ofSeconds(10))
                    .until(() -> countWhere("SELECT count(*) FROM job_outbox WHERE job_id = ANY(?)",
                            traceOfJob.keySet()) == 0);
        }
        assertThat(groupsStored() - groupsBefore).as("groups stored for %d concurrent submissions", IN_FLIGHT * 3)
                .isPositive().isLessThan(IN_FLIGHT * 3);
    }

    /**
     * Groups stored so far; 0 while the metric does not exist yet (JobMetrics is created on first use, which a test
     * that runs first in a fresh application can precede).
     */
    private long groupsStored() {
        DistributionSummary groups = registry.find("jobweaver.submission.group.size").summary();
        return groups == null ? 0 : groups.count();
    }

    private static long countWhere(String sql, java.util.Collection<String> ids) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement query = db.prepareStatement(sql)) {
            query.setArray(1, db.createArrayOf("uuid", ids.stream().map(UUID::fromString).toArray()));
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
