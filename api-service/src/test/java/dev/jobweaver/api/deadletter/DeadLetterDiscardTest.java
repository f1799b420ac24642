package dev.jobweaver.api.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * POST /api/dead-letters/{jobId}/discard: an OPEN dead letter is answered 200, DISCARDED with its reason, and kept;
 * no command is sent; a DISCARDED or REQUEUED one is 409 naming its state, and a discarded one cannot be requeued; a
 * job without a dead letter 404.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class DeadLetterDiscardTest {

    @Inject
    MeterRegistry registry;

    @Test
    void anOpenDeadLetterIsDiscardedWithItsReasonAndKept() throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now().minusSeconds(30));
        double discarded = counter();

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            Response response = DeadLetters.discard(jobId, "{\"reason\":\"the input file is gone\"}");

            assertThat(response.statusCode()).as(response.asString()).isEqualTo(200);
            JsonPath body = response.jsonPath();
            assertThat(body.getString("state")).isEqualTo("DISCARDED");
            assertThat(body.getString("discardReason")).isEqualTo("the input file is gone");
            assertThat(Instant.parse(body.getString("discardedAt"))).isBetween(Instant.now().minusSeconds(60),
                    Instant.now());
            assertThat(probe.readToEnd().stream().filter(r -> jobId.equals(r.key())))
                    .as("a discard sends no command").isEmpty();
        }
        Map<String, String> row = DeadLetters.row(jobId);
        assertThat(row.get("state")).isEqualTo("DISCARDED");
        assertThat(row.get("discard_reason")).isEqualTo("the input file is gone");
        assertThat(counter()).isEqualTo(discarded + 1);
    }

    @Test
    void aDiscardedDeadLetterCannotBeDiscardedOrRequeuedAgain() throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now().minusSeconds(30));
        assertThat(DeadLetters.discard(jobId, "{\"reason\":\"first\"}").statusCode()).isEqualTo(200);
        Map<String, String> before = DeadLetters.row(jobId);

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            for (Response response : new Response[] {DeadLetters.discard(jobId, "{\"reason\":\"second\"}"),
                    DeadLetters.requeue(jobId, null)}) {
                assertThat(response.statusCode()).as(response.asString()).isEqualTo(409);
                assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.DEAD_LETTER_NOT_OPEN");
                assertThat(response.jsonPath().getString("message")).contains("DISCARDED");
            }
            assertThat(probe.readToEnd().stream().filter(r -> jobId.equals(r.key()))).isEmpty();
        }
        assertThat(DeadLetters.row(jobId)).isEqualTo(before);
    }

    @Test
    void aRequeuedDeadLetterCannotBeDiscarded() throws Exception {
        String jobId = DeadLetters.storeOpen(Instant.now().minusSeconds(30));
        assertThat(DeadLetters.requeue(jobId, null).statusCode()).isEqualTo(202);

        Response response = DeadLetters.discard(jobId, "{\"reason\":\"too late\"}");

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(409);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.DEAD_LETTER_NOT_OPEN");
        assertThat(response.jsonPath().getString("message")).contains("REQUEUED");
        assertThat(DeadLetters.row(jobId).get("state")).isEqualTo("REQUEUED");
    }

    @Test
    void aJobWithoutADeadLetterIs404() {
        Response response = DeadLetters.discard(UUID.randomUUID().toString(), "{\"reason\":\"x\"}");

        assertThat(response.statusCode()).as(response.asString()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.DEAD_LETTER_NOT_FOUND");
    }

    private double counter() {
        var counter = registry.find("jobweaver.dead.letters.discarded").counter();
        return counter == null ? 0 : counter.count();
    }
}
