package dev.jobweaver.scheduler.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.quarantine.QuarantineHeaders;
import dev.jobweaver.common.quarantine.QuarantineReason;
import dev.jobweaver.common.worker.WorkerStore;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.PoisonRecords;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.testing.QuarantineTopic;
import dev.jobweaver.testing.QuarantineTopic.Position;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code worker-heartbeats} into the scheduler's {@code workers}: each worker's newest heartbeat is stored, a worker
 * that leaves is live no more, and a record that is no usable heartbeat is quarantined while the good one behind it on
 * the partition is applied.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class WorkerHeartbeatConsumerTest extends KafkaAndDbTest {

    @Test
    void theNewestHeartbeatOfEachWorkerIsStoredAndALeavingWorkerIsLiveNoMore() {
        String worker = "w-" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        send(heartbeat(worker, List.of("images"), now, false));
        send(heartbeat(worker, List.of("stale"), now.minusSeconds(3), false));
        awaitLive(worker, List.of("images"));

        send(heartbeat(worker, List.of("images"), now.plusMillis(1), true));
        await().atMost(TIMEOUT).until(() -> live(worker) == null);
    }

    @Test
    void badRecordsAreQuarantinedAndTheGoodOneBehindThemIsApplied() {
        String good = "w-" + UUID.randomUUID().toString().substring(0, 8);
        String bad = "w-" + UUID.randomUUID().toString().substring(0, 8);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        long noTypes = producer.sendRaw(Topics.WORKER_HEARTBEATS, 0, bad, jsonBytes(new WorkerHeartbeatEvent(bad,
                List.of("default"), List.of(), 4, 5_000, now, now, false)));
        long otherKey = producer.sendRaw(Topics.WORKER_HEARTBEATS, 0, "someone-else",
                jsonBytes(heartbeat(bad, List.of("default"), now, false)));
        long tombstone = producer.sendRaw(Topics.WORKER_HEARTBEATS, 0, bad, null);
        send(heartbeat(good, List.of("default"), now, false));

        awaitLive(good, List.of("default"));
        assertThat(live(bad)).isNull();
        Map<Position, ConsumerRecord<String, byte[]>> copies = PoisonRecords.awaitQuarantined(bootstrapServers,
                List.of(at(noTypes), at(otherKey), at(tombstone)));
        assertThat(QuarantineTopic.header(copies.get(at(noTypes)), QuarantineHeaders.DETAIL)).contains("types");
        assertThat(QuarantineTopic.header(copies.get(at(otherKey)), QuarantineHeaders.DETAIL))
                .contains("must be its workerId");
        assertThat(QuarantineTopic.header(copies.get(at(tombstone)), QuarantineHeaders.REASON))
                .isEqualTo(QuarantineReason.INVALID.name());
    }

    private static WorkerHeartbeatEvent heartbeat(String worker, List<String> queues, Instant sentAt,
                                                  boolean leaving) {
        return new WorkerHeartbeatEvent(worker, queues, List.of("SIMULATION", "report.monthly"), 16, 5_000,
                sentAt.minusSeconds(30), sentAt, leaving);
    }

    /** All on partition 0 (the topic's only one), so that a later record is applied after the earlier ones. */
    private void send(WorkerHeartbeatEvent heartbeat) {
        producer.sendRaw(Topics.WORKER_HEARTBEATS, 0, heartbeat.workerId(), jsonBytes(heartbeat));
    }

    private void awaitLive(String worker, List<String> queues) {
        await().atMost(TIMEOUT).untilAsserted(() -> {
            WorkerStore.LiveWorker live = live(worker);
            assertThat(live).as("live worker " + worker).isNotNull();
            assertThat(live.queues()).isEqualTo(queues);
            assertThat(live.types()).containsExactly("SIMULATION", "report.monthly");
            assertThat(live.capacity()).isEqualTo(16);
        });
    }

    private WorkerStore.LiveWorker live(String worker) {
        return new WorkerStore(pool).live(Instant.now()).await().atMost(TIMEOUT).stream()
                .filter(w -> w.id().equals(worker)).findFirst().orElse(null);
    }

    private static Position at(long offset) {
        return new Position(Topics.WORKER_HEARTBEATS, 0, offset);
    }
}
