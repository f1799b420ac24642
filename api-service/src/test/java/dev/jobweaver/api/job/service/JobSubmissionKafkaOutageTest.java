package dev.jobweaver.api.job.service;

import dev.jobweaver.local.testing.LocalStackResource;
import io.quarkus.test.common.ResourceArg;
import dev.jobweaver.local.LocalStack;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.messaging.Topics;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * With Kafka stopped a submission is answered 503 with Retry-After and its job is REJECTED; after Kafka is back,
 * submissions get 202 again. Every 202 job reaches job-created; no 503 job ever does.
 */
@QuarkusTest
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_api"))
class JobSubmissionKafkaOutageTest {

    @Test
    void kafkaDownMeans503AndNo503JobEverReachesTheTopic() {
        List<String> accepted = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            // one accepted before the outage, so the producer has live metadata when the broker goes away
            Response before = Jobs.submit(Jobs.VALID);
            assertThat(before.statusCode()).isEqualTo(202);
            accepted.add(before.jsonPath().getString("jobId"));

            LocalStack.shared().kafka().stop();
            try {
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                        .until(() -> given().get("/q/health/ready").statusCode() == 503);
                for (int i = 0; i < 3; i++) {
                    long started = System.nanoTime();
                    Response response = Jobs.submit(Jobs.VALID);
                    long tookMs = (System.nanoTime() - started) / 1_000_000;

                    assertThat(response.statusCode()).as("submission while Kafka is down").isEqualTo(503);
                    assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.SERVICE_UNAVAILABLE");
                    assertThat(Integer.parseInt(response.header("Retry-After"))).isPositive();
                    String jobId = response.jsonPath().getString("jobId");
                    assertThat(jobId).isNotBlank();
                    rejected.add(jobId);
                    // bounded by the send timeout (5 s) plus grace, never the producer's 2-minute default
                    assertThat(tookMs).isLessThan(15_000);
                    given().get("/api/jobs/" + jobId).then().statusCode(200)
                            .body("status", org.hamcrest.Matchers.equalTo("REJECTED"));
                }
            } finally {
                LocalStack.shared().kafka().start();
            }

            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> given().get("/q/health/ready").statusCode() == 200);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                Response response = Jobs.submit(Jobs.VALID);
                if (response.statusCode() == 202) {
                    accepted.add(response.jsonPath().getString("jobId"));
                    return true;
                }
                assertThat(response.statusCode()).isEqualTo(503);
                rejected.add(response.jsonPath().getString("jobId"));
                return false;
            });
            for (int i = 0; i < 3; i++) {
                Response response = Jobs.submit(Jobs.VALID);
                assertThat(response.statusCode()).as("submission after Kafka is back").isEqualTo(202);
                accepted.add(response.jsonPath().getString("jobId"));
            }

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().map(ConsumerRecord::key).collect(Collectors.toSet()).containsAll(accepted),
                    Duration.ofSeconds(60));
            // keep listening a little: a 503 job that leaked would arrive with the producer's late retries
            records = probe.pollFor(Duration.ofSeconds(5));
            Set<String> published = new HashSet<>(records.stream().map(ConsumerRecord::key).toList());

            assertThat(published).as("every job answered 202 reached job-created").containsAll(accepted);
            assertThat(published).as("no job answered 503 reached job-created").doesNotContainAnyElementsOf(rejected);
            assertThat(rejected).hasSizeGreaterThanOrEqualTo(3);
        }
    }
}
