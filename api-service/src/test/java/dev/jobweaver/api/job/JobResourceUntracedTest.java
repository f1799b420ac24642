package dev.jobweaver.api.job;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.PerClassSettings;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * Submissions with traces off as `./jobweaver up` runs without a trace viewer (no HTTP server span, nothing sampled):
 * the job still has one trace id, the client's when its {@code traceparent} is valid, in the 202, the event and the
 * event's {@code traceparent} header. The profile sets what `up` sets without `--traces`.
 */
@QuarkusTest
@TestProfile(PerClassSettings.class)
@JobWeaverTest(database = "jobweaver_api")
class JobResourceUntracedTest {

    @Inject
    ObjectMapper mapper;

    @Test
    void withoutATraceparentTheJobGetsANewTraceNotSampledCarriedThroughItsEvent() throws Exception {
        ConsumerRecord<String, byte[]> record = submitAndRead(null);
        String traceId = traceIdOf(record);

        assertThat(traceId).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32));
        assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).matches("00-" + traceId + "-[0-9a-f]{16}-00");
    }

    @Test
    void aValidClientTraceparentNamesTheJobsTraceAndKeepsItsSampledFlag() throws Exception {
        String clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736";

        ConsumerRecord<String, byte[]> record = submitAndRead("00-" + clientTrace + "-00f067aa0ba902b7-01");

        assertThat(traceIdOf(record)).isEqualTo(clientTrace);
        assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).startsWith("00-" + clientTrace + "-")
                .doesNotContain("00f067aa0ba902b7").endsWith("-01");
    }

    @Test
    void aMalformedTraceparentIsIgnoredAndTheJobGetsItsOwnTrace() throws Exception {
        ConsumerRecord<String, byte[]> record = submitAndRead("00-not-a-trace-01");

        assertThat(traceIdOf(record)).matches("[0-9a-f]{32}");
    }

    /** Submits a valid job, checks the 202 against the record on job-created, and answers that record. */
    private ConsumerRecord<String, byte[]> submitAndRead(String traceparent) throws Exception {
        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            var request = given().contentType(ContentType.JSON).body(Jobs.VALID);
            if (traceparent != null) {
                request = request.header(Headers.TRACEPARENT, traceparent);
            }
            Response response = request.post("/api/jobs");
            assertThat(response.statusCode()).isEqualTo(202);
            String jobId = response.jsonPath().getString("jobId");
            String traceId = response.jsonPath().getString("traceId");

            ConsumerRecord<String, byte[]> record = probe.first(jobId);
            assertThat(traceIdOf(record)).as("the event's traceId is the 202's").isEqualTo(traceId);
            assertThat(KafkaProbe.header(record, Headers.TRACEPARENT)).as("the header names the same trace")
                    .startsWith("00-" + traceId + "-");
            return record;
        }
    }

    private String traceIdOf(ConsumerRecord<String, byte[]> record) throws Exception {
        return mapper.readValue(record.value(), JobCreatedEvent.class).traceId();
    }
}
