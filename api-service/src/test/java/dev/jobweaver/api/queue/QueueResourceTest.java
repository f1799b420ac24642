package dev.jobweaver.api.queue;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.ConsumerTestSupport;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.PoisonCorpus.Poison;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /api/queues}: the queues' depth from the read model, their live workers from {@code worker-heartbeats}
 * (each worker as its newest heartbeat says, gone when it leaves), refused heartbeats quarantined, bad parameters 400.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class QueueResourceTest extends ConsumerTestSupport {

    @jakarta.inject.Inject
    LiveWorkerView live;

    @Test
    void aQueueShowsItsJobsAndItsLiveWorkers() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String queue = "images-" + suffix;
        String resizer = "resizer-" + suffix;
        String leaver = "leaver-" + suffix;
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Answers.expect(Jobs.submit("{\"jobType\":\"image.resize\",\"queue\":\"" + queue + "\"}"), 202, "a job");
        QuarantineTopic.produce(KafkaProbe.bootstrapServers(), Topics.WORKER_HEARTBEATS, List.of(
                record(heartbeat(leaver, List.of(queue), now.minusSeconds(2), false)),
                record(heartbeat(resizer, List.of(queue, "default"), now.minusSeconds(1), false)),
                record(heartbeat(resizer, List.of(queue, "default"), now, false)),
                // older than the one before: it changes nothing
                record(heartbeat(resizer, List.of("stale-" + suffix), now.minusSeconds(5), false)),
                record(heartbeat(leaver, List.of(queue), now, true))));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonPath queues = given().get("/api/queues").then().statusCode(200).extract().jsonPath();
            assertThat(queues.getList("queues.name")).contains("default", queue).doesNotContain("stale-" + suffix);
            String at = "queues.find { it.name == '" + queue + "' }";
            assertThat(queues.getLong(at + ".pending")).isEqualTo(1);
            assertThat(queues.getLong(at + ".running")).isZero();
            assertThat(queues.getList(at + ".workers.id")).as("the leaver said it leaves").containsExactly(resizer);
            assertThat(queues.getList(at + ".workers[0].types")).containsExactly("image.resize", "image.crop");
            assertThat(queues.getInt(at + ".workers[0].capacity")).isEqualTo(8);
            assertThat(Instant.parse(queues.getString(at + ".workers[0].lastSeenAt"))).isEqualTo(now);
            assertThat(queues.getList("queues.find { it.name == 'default' }.workers.id")).contains(resizer);
        });
    }

    @Test
    void aHeartbeatThatBreaksARuleIsQuarantinedAndTheOthersApplied() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String good = "good-" + suffix;
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<Poison> records = List.of(
                new Poison("not JSON", "w-" + suffix, "{not json".getBytes(StandardCharsets.UTF_8)),
                new Poison("keyed by another worker", "other-" + suffix,
                        json(heartbeat("w-" + suffix, List.of("default"), now, false))),
                record(heartbeat("bad-" + suffix, List.of("Bad Queue"), now, false)),
                new Poison("a tombstone", "gone-" + suffix, null),
                record(heartbeat(good, List.of("q-" + suffix), now, false)));
        List<Position> positions = QuarantineTopic.produce(KafkaProbe.bootstrapServers(), Topics.WORKER_HEARTBEATS,
                records);

        Map<Position, ConsumerRecord<String, byte[]>> found = QuarantineTopic.awaitQuarantined(
                KafkaProbe.bootstrapServers(), positions.subList(0, 4), Duration.ofSeconds(60));
        for (int i = 0; i < 4; i++) {
            ConsumerRecord<String, byte[]> copy = found.get(positions.get(i));
            assertThat(copy).as(records.get(i).name()).isNotNull();
            assertThat(QuarantineTopic.header(copy, QuarantineHeaders.REASON)).as(records.get(i).name())
                    .isIn(QuarantineReason.UNREADABLE.name(), QuarantineReason.INVALID.name());
        }
        assertThat(found).doesNotContainKey(positions.get(4));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(given().get("/api/queues").then()
                .statusCode(200).extract().jsonPath().getList("queues.find { it.name == 'q-" + suffix + "' }.workers.id"))
                .containsExactly(good));
    }

    @Test
    void aPendingJobSaysWhatItWaitsForUntilAWorkerForItLives() throws Exception {
        String suffix = Long.toString(System.nanoTime(), 36);
        String queue = "exports-" + suffix;
        String id = Answers.expect(Jobs.submit("{\"jobType\":\"image.crop\",\"queue\":\"" + queue + "\"}"), 202,
                "a job").getString("jobId");
        live.refresh().await().atMost(Duration.ofSeconds(10));
        assertThat(Jobs.get(id).getString("waitingFor")).isEqualTo("a worker for type image.crop on queue " + queue);

        QuarantineTopic.produce(KafkaProbe.bootstrapServers(), Topics.WORKER_HEARTBEATS,
                List.of(record(heartbeat("cropper-" + suffix, List.of(queue), Instant.now(), false))));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            live.refresh().await().atMost(Duration.ofSeconds(10));
            JsonPath job = Jobs.get(id);
            assertThat(job.getString("status")).isEqualTo("PENDING");
            assertThat(job.getString("waitingFor")).isNull();
        });
    }

    @Test
    void aTenantThatIsNoNameIsRefusedNamingIt() {
        JsonPath refused = given().queryParam("tenant", "Not A Tenant").get("/api/queues").then().statusCode(400)
                .extract().jsonPath();
        assertThat(refused.getString("errorCode")).isEqualTo("API.INVALID_PARAMETER");
        assertThat(refused.getString("message")).startsWith("query parameter tenant must match");
    }

    private static WorkerHeartbeatEvent heartbeat(String worker, List<String> queues, Instant sentAt,
                                                  boolean leaving) {
        return new WorkerHeartbeatEvent(worker, queues, List.of("image.resize", "image.crop"), 8, 5_000,
                sentAt.minusSeconds(60), sentAt, leaving);
    }

    /** {@code heartbeat} keyed by its worker, named by what it says. */
    private Poison record(WorkerHeartbeatEvent heartbeat) throws JsonProcessingException {
        return new Poison(heartbeat.workerId() + " " + heartbeat.queues() + " at " + heartbeat.sentAt(),
                heartbeat.workerId(), json(heartbeat));
    }

    private byte[] json(WorkerHeartbeatEvent heartbeat) throws JsonProcessingException {
        return mapper.writeValueAsBytes(heartbeat);
    }
}
