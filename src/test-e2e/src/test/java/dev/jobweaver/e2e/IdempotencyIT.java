package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Idempotency keys on the packaged services: a client that repeats a submission after a timeout, or sends it many
 * times at once, gets one job and the same answer each time; the same key with another body is refused.
 */
@HealthyPlatform
class IdempotencyIT {

    private static final String BODY =
            "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"once\"}]}}";

    @Test
    void aRepeatedKeyGetsTheFirstAnswerAndAnotherBodyIsRefused() {
        JobWeaverClient api = E2ePlatform.api();
        String key = "e2e-" + UUID.randomUUID();

        JobWeaverClient.Answer first = api.submitWithKey(BODY, key);
        JobWeaverClient.Answer again = api.submitWithKey(BODY, key);
        JobWeaverClient.Answer other = api.submitWithKey(BODY.replace("once", "twice"), key);

        assertThat(first.status()).isEqualTo(202);
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.jobId()).isEqualTo(first.jobId());
        assertThat(again.body().path("traceId").asText()).isEqualTo(first.body().path("traceId").asText());
        assertThat(other.status()).isEqualTo(409);
        assertThat(other.body().path("errorCode").asText()).isEqualTo("API.IDEMPOTENCY_CONFLICT");
        api.awaitAll(List.of(first.jobId()), JobWeaverClient::terminal, Duration.ofSeconds(30));
        assertThat(Executions.perJob(List.of(first.jobId()))).containsEntry(first.jobId(), 1);
    }

    @Test
    void concurrentDuplicatesMakeOneJobAndOneAnswer() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        String key = "e2e-" + UUID.randomUUID();
        List<JobWeaverClient.Answer> answers = new ArrayList<>();
        try (ExecutorService clients = Executors.newFixedThreadPool(20)) {
            List<Future<JobWeaverClient.Answer>> sent = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                sent.add(clients.submit(() -> api.submitWithKey(BODY, key)));
            }
            for (Future<JobWeaverClient.Answer> answer : sent) {
                answers.add(answer.get());
            }
        }

        assertThat(answers).extracting(JobWeaverClient.Answer::status).containsOnly(202);
        UUID jobId = answers.getFirst().jobId();
        assertThat(answers).extracting(JobWeaverClient.Answer::jobId).containsOnly(jobId);
        api.awaitAll(List.of(jobId), JobWeaverClient::terminal, Duration.ofSeconds(30));
        assertThat(api.job(jobId).path("status").asText()).isEqualTo("COMPLETED");
        assertThat(Executions.perJob(List.of(jobId))).containsEntry(jobId, 1);
    }
}
