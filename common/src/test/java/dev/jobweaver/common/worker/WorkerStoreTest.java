package dev.jobweaver.common.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.Priority;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One statement stores a poll's heartbeats: one per worker, its newest, whatever their order in the poll. */
class WorkerStoreTest {

    private static final Instant T = Instant.parse("2026-11-30T07:00:00Z");

    private static WorkerHeartbeatEvent beat(String worker, int second) {
        return new WorkerHeartbeatEvent(worker, List.of("default"), List.of("HTTP"), 1, 5000, T, T.plusSeconds(second),
                false);
    }

    @Test
    void theNewestHeartbeatOfEachWorkerIsKept() {
        List<WorkerHeartbeatEvent> newest = WorkerStore.newestPerWorker(List.of(beat("a", 1), beat("b", 1),
                beat("a", 3), beat("a", 2), beat("b", 0)));

        assertThat(newest).containsExactly(beat("a", 3), beat("b", 1));
    }

    @Test
    void thePartitionsAWorkerHoldsAreStoredAsQueuePartitionEntriesAndReadBack() {
        Map<String, List<Integer>> held = Map.of("default", List.of(0, 2), "billing-eu", List.of(1));

        String stored = WorkerStore.assigned(held);

        assertThat(stored.split(",")).containsExactlyInAnyOrder("default:0", "default:2", "billing-eu:1");
        assertThat(WorkerStore.partitions(stored.split(","))).isEqualTo(held);
        assertThat(WorkerStore.assigned(Map.of())).isEmpty();
        assertThat(WorkerStore.partitions(new String[0])).as("a worker holding none").isEmpty();
        assertThat(WorkerStore.assigned(null)).isNull();
        assertThat(WorkerStore.partitions(null)).as("a worker that did not say").isNull();
    }

    @Test
    void theDefaultsAWorkerDeclaresAreStoredAsJsonAndReadBack() {
        Map<String, WorkerHeartbeatEvent.TypeDefaults> declared = Map.of(
                "invoice.total", new WorkerHeartbeatEvent.TypeDefaults(5_000L, List.of(1_000L, 5_000L), Priority.HIGH),
                "invoice.void", new WorkerHeartbeatEvent.TypeDefaults(null, null, Priority.LOW));

        String stored = WorkerStore.defaultsJson(declared);

        assertThat(WorkerStore.defaults(stored)).isEqualTo(declared);
        assertThat(WorkerStore.defaultsJson(Map.of())).isNull();
        assertThat(WorkerStore.defaultsJson(null)).isNull();
        assertThat(WorkerStore.defaults(null)).isEmpty();
        assertThat(WorkerStore.defaults("{\"x\":{\"priority\":\"URGENT\"}}")).as("a newer worker's").isEmpty();
    }
}
