package dev.jobweaver.api.deadletter;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.api.job.store.JsonColumns;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.DeadLetters;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.common.event.DeadLetterEvent;
import dev.jobweaver.common.messaging.Topics;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Dead letters in the native executable: one consumed from job-dead-letter, listed, read, discarded. */
@ExtendWith(NativeProfile.AsAdmin.class)
class DeadLetterIT extends NativeExecutable {

    @Test
    void aDeadLetterFromKafkaIsListedReadAndDiscarded() throws Exception {
        String jobId = Jobs.submitOne();
        String traceId = Jobs.get(jobId).getString("traceId");
        KafkaProbe.send(NativeProfile.bootstrapServers(), Topics.JOB_DEAD_LETTER, jobId, JsonColumns.mapper()
                .writeValueAsBytes(new DeadLetterEvent(UUID.fromString(jobId), "boom", 2, Instant.now(), traceId)));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(given().get("/api/dead-letters")
                .then().statusCode(200).extract().jsonPath().getList("deadLetters.jobId", String.class))
                .contains(jobId));
        JsonPath read = Answers.expect(given().get("/api/dead-letters/" + jobId), 200, "the dead letter");
        assertThat(read.getString("state")).isEqualTo("OPEN");
        assertThat(read.getString("jobType")).isEqualTo("SIMULATION");

        assertThat(DeadLetters.discard(jobId, "{\"reason\":\"seen\"}").statusCode()).isEqualTo(200);
        assertThat(Answers.expect(given().get("/api/dead-letters/" + jobId), 200, "the discarded dead letter")
                .getString("state")).isEqualTo("DISCARDED");
    }
}
