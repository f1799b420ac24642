package dev.jobweaver.worker.handler.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.HttpCallPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.WebhookReceiver;
import dev.jobweaver.worker.testing.WorkerDatabase;
import dev.jobweaver.worker.testing.WorkerDatabase.AttemptRow;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafka.Outcome;
import dev.jobweaver.worker.testing.WorkerKafkaSupport;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP jobs run by the executable: the JDK's HTTP client calls a receiver on 127.0.0.1 (which the test profile
 * allows), and a destination the configuration refuses is never called.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = WorkerDatabase.NAME)
class HttpJobIT extends WorkerKafkaSupport {

    private static WebhookReceiver receiver;

    @BeforeAll
    static void startReceiver() throws IOException {
        // An unsigned request is answered 200 here: an HTTP job signs nothing.
        receiver = WebhookReceiver.start().whileSecretUnknown(200);
    }

    @AfterAll
    static void stopReceiver() {
        receiver.close();
    }

    @Test
    void anHttpJobCallsTheReceiverAndItsAnswerIsTheResult() {
        String body = "{\"from\":\"native\"}";
        RunJobEvent run = WorkerKafka.run(JobType.HTTP, new HttpCallPayload("POST", receiver.url("native-http"),
                Map.of("Content-Type", "application/json"), body, List.of(200), 5_000L), null);
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_COMPLETED);
        assertThat(outcome.value().path("result")).isEqualTo(WorkerKafka.JSON.createObjectNode()
                .put("status", 200).put("body", "").put("truncated", false));
        assertThat(receiver.receivedBy("native-http")).singleElement()
                .satisfies(received -> assertThat(received.body()).isEqualTo(body));
        AttemptRow row = WorkerDatabase.attempt(run.eventId());
        assertThat(row.outcome()).isEqualTo("SUCCESS");
        assertThat(row.result()).isEqualTo("{\"body\": \"\", \"status\": 200, \"truncated\": false}");
    }

    @Test
    void aPrivateDestinationIsRefusedWithoutACall() {
        RunJobEvent run = WorkerKafka.run(JobType.HTTP, new HttpCallPayload("GET", "http://10.1.2.3/", null, null,
                null, null), null);
        kafka.send(run, null);

        Outcome outcome = firstOutcome(run.jobId());
        assertThat(outcome.topic()).isEqualTo(Topics.JOB_FAILED);
        assertThat(outcome.errorMessage()).startsWith("WORKER.HTTP_CALL_FAILED: GET http://10.1.2.3/ refused:")
                .contains("address 10.1.2.3, a private address");
        assertThat(WorkerDatabase.attempt(run.eventId()).outcome()).isEqualTo("FAILURE");
    }
}
