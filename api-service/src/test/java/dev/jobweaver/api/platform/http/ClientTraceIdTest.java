package dev.jobweaver.api.platform.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.job.JobResource;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code X-Trace-Id}: every answer to a request that carries one carries it back, an accepted job is logged with it,
 * a malformed one is a 400 naming the header, and a request without one gets none.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class ClientTraceIdTest {

    private static final String JOB = "{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
            + "\"message\":\"x-trace-id\"}]}}";

    @Test
    void anAcceptedJobsAnswerCarriesItBackAndTheJobIsLoggedWithIt() {
        String clientId = "0b8f6f0e-3c1e-4a5e-9d4e-2f7d3b1c9a10";
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(((ExtLogRecord) record).getFormattedMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(JobResource.class.getName());
        logger.addHandler(capture);
        Response accepted;
        try {
            accepted = given().header(ClientTraceId.HEADER, clientId).contentType(ContentType.JSON).body(JOB)
                    .post("/api/jobs");
        } finally {
            logger.removeHandler(capture);
        }

        assertThat(accepted.statusCode()).as(accepted.asString()).isEqualTo(202);
        assertThat(accepted.header(ClientTraceId.HEADER)).isEqualTo(clientId);
        String jobId = accepted.jsonPath().getString("jobId");
        String traceId = accepted.jsonPath().getString("traceId");
        assertThat(lines).as("the line that leads from the client's id to the job").anySatisfy(line -> assertThat(line)
                .contains(jobId, traceId, ClientTraceId.HEADER + " " + clientId));
    }

    @Test
    void answersTheRestLayerNeverSeesCarryItToo() {
        Response notFound = given().header(ClientTraceId.HEADER, "req-404").get("/api/no-such-thing");
        Response tooLarge = given().header(ClientTraceId.HEADER, "req-413").contentType(ContentType.JSON)
                .body("{\"jobType\":\"SIMULATION\",\"payload\":{\"x\":\"" + "y".repeat(70 * 1024) + "\"}}")
                .post("/api/jobs");
        Response refused = given().header(ClientTraceId.HEADER, "req-400").contentType(ContentType.JSON)
                .body("{\"jobType\":\"no such type!\"}").post("/api/jobs");

        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(notFound.header(ClientTraceId.HEADER)).isEqualTo("req-404");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        assertThat(tooLarge.header(ClientTraceId.HEADER)).isEqualTo("req-413");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.header(ClientTraceId.HEADER)).isEqualTo("req-400");
    }

    @ParameterizedTest
    @ValueSource(strings = {"two words", "tab\there"})
    void aMalformedOneIsA400NamingTheHeader(String value) {
        Response response = given().header(ClientTraceId.HEADER, value).get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.INVALID_PARAMETER");
        assertThat(response.jsonPath().getString("message")).contains(ClientTraceId.HEADER);
        assertThat(response.header(ClientTraceId.HEADER)).isNull();
    }

    @Test
    void onlyVisibleAsciiIsTaken() {
        assertThat(ClientTraceId.problem("ünïcode")).contains("character 1 is U+00FC");
        assertThat(ClientTraceId.problem("")).contains("1 to 128", "got 0");
        assertThat(ClientTraceId.problem("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).isNull();
    }

    @Test
    void oneTooLongIsA400SayingTheBound() {
        Response response = given().header(ClientTraceId.HEADER, "x".repeat(ClientTraceId.MAX_LENGTH + 1))
                .get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.jsonPath().getString("message")).contains(ClientTraceId.HEADER, "1 to 128", "129");
    }

    @Test
    void oneAtTheBoundIsTaken() {
        String longest = "x".repeat(ClientTraceId.MAX_LENGTH);

        Response response = given().header(ClientTraceId.HEADER, longest).get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.header(ClientTraceId.HEADER)).isEqualTo(longest);
    }

    @Test
    void aRequestWithoutOneGetsNone() {
        Response response = given().get("/api/jobs");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.header(ClientTraceId.HEADER)).isNull();
    }
}
