package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.job.store.HeldSubmissionStore;
import dev.jobweaver.api.job.outbox.HeldOutboxStore;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
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
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How groups of submissions go through the service: a group is answered once its insert committed, without waiting for
 * Kafka, and its rows are deleted once Kafka took the events; at most {@code publish.batches-in-flight} inserts run at
 * once; a failed insert fails its own group only; a request's answer does not wait for its outbox row's delete.
 * Inserts, publishes and deletes are the real ones, held back by the test. The profile allows two group inserts in
 * flight and enables the stores and the publisher the test can hold back.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class JobSubmissionGroupsInFlightTest {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TestHTTPResource("/api/jobs")
    URI jobs;

    @Inject
    HeldSubmissionStore store;

    @Inject
    HeldOutboxStore outbox;

    @Inject
    HeldJobCreatedPublisher publisher;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** Before: the profile's other classes submit through the same store. After: nothing is left held for them. */
    @BeforeEach
    @AfterEach
    void letEverythingGo() {
        store.reset();
        outbox.releaseDeletes();
        publisher.release();
    }

    @Test
    void groupsAreAnsweredOnCommitWhileKafkaIsHeldAndTheirRowsGoOnceItTookThem() throws Exception {
        publisher.hold();
        List<UUID> answered = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> response = submit().get(30, TimeUnit.SECONDS);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
            answered.add(UUID.fromString(new JsonPath(response.body()).getString("jobId")));
        }

        // Answered while every publish is still held: the requests did not wait for Kafka.
        assertThat(answered).containsExactlyInAnyOrderElementsOf(store.stored());
        await().atMost(WAIT).until(() -> publisher.held() == 3);
        assertThat(count("SELECT count(*) FROM job_outbox WHERE job_id = ANY(?)", answered))
                .as("outbox rows of jobs Kafka has not taken").isEqualTo(3);

        publisher.release();

        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM job_outbox WHERE job_id = ANY(?)", answered) == 0);
        assertThat(count("SELECT count(*) FROM jobs WHERE status = 'PENDING' AND id = ANY(?)", answered)).isEqualTo(3);
    }

    @Test
    void atMostTheConfiguredInsertsRunAtOnce() throws Exception {
        store.hold();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        calls.add(submit());
        await().atMost(WAIT).until(() -> store.started().size() == 1);
        calls.add(submit());
        await("the second insert did not wait for the first").atMost(WAIT)
                .until(() -> store.started().size() == 2);
        calls.add(submit());
        calls.add(submit());
        // A negative: these two may only start once a slot is free. (A slow machine can make this pass wrongly,
        // never fail wrongly.)
        Thread.sleep(1_000);
        assertThat(store.started()).as("inserts started while two were held").hasSize(2);

        store.release();

        List<UUID> answered = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> response = call.get(30, TimeUnit.SECONDS);
            assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
            answered.add(UUID.fromString(new JsonPath(response.body()).getString("jobId")));
        }
        assertThat(store.started().stream().flatMap(List::stream).toList())
                .as("each submission in exactly one insert").containsExactlyInAnyOrderElementsOf(answered);
        assertThat(count("SELECT count(*) FROM jobs WHERE status = 'PENDING' AND id = ANY(?)", answered))
                .isEqualTo(answered.size());
    }

    @Test
    void theAnswerDoesNotWaitForTheOutboxDelete() throws Exception {
        outbox.holdDeletes();

        HttpResponse<String> response = submit().get(30, TimeUnit.SECONDS);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(202);
        UUID jobId = UUID.fromString(new JsonPath(response.body()).getString("jobId"));
        assertThat(count("SELECT count(*) FROM job_outbox WHERE job_id = ANY(?)", List.of(jobId)))
                .as("outbox row still there when the 202 went out").isEqualTo(1);

        outbox.releaseDeletes();
        await().atMost(WAIT).until(() -> count("SELECT count(*) FROM job_outbox WHERE job_id = ANY(?)",
                List.of(jobId)) == 0);
    }

    @Test
    void aFailedInsertFailsItsOwnGroupAndTheNextGroupIsStored() throws Exception {
        store.failNext(new IllegalStateException("connection to the database lost (test)"));

        HttpResponse<String> failed = submit().get(30, TimeUnit.SECONDS);
        HttpResponse<String> next = submit().get(30, TimeUnit.SECONDS);

        // a lost connection is transient: the client may retry, nothing was stored
        assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
        assertThat(new JsonPath(failed.body()).getString("errorCode")).isEqualTo("API.SERVICE_UNAVAILABLE");
        assertThat(failed.headers().firstValue("Retry-After")).isPresent();
        assertThat(next.statusCode()).as(next.body()).isEqualTo(202);
        UUID stored = UUID.fromString(new JsonPath(next.body()).getString("jobId"));
        assertThat(store.started()).hasSize(2);
        assertThat(store.stored()).containsExactly(stored);
        assertThat(count("SELECT count(*) FROM jobs WHERE id = ANY(?)", store.started().getFirst())).isZero();
    }

    private CompletableFuture<HttpResponse<String>> submit() {
        return client.sendAsync(HttpRequest.newBuilder(jobs)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Jobs.VALID)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long count(String sql, Collection<UUID> ids) throws Exception {
        try (Connection db = Database.connect(); PreparedStatement query = db.prepareStatement(sql)) {
            query.setArray(1, db.createArrayOf("uuid", ids.toArray()));
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
