package dev.jobweaver.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.Priority;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rules of a worker's heartbeat, which its readers quarantine a record for breaking. */
class WorkerHeartbeatRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-30T07:00:00Z");

    private static WorkerHeartbeatEvent heartbeat(String id, List<String> queues, List<String> types, int capacity,
                                                  long intervalMs) {
        return new WorkerHeartbeatEvent(id, queues, types, capacity, intervalMs, NOW.minusSeconds(60), NOW, false);
    }

    @Test
    void aWorkerOfOneQueueAndItsTypesBreaksNothing() {
        assertThat(EventRules.problem(heartbeat("w-1", List.of("default", "images"), List.of("HTTP", "image.resize"),
                1000, 5000))).isNull();
    }

    @Test
    void eachBrokenRuleIsNamed() {
        assertThat(EventRules.problem(heartbeat(null, List.of("default"), List.of("HTTP"), 1, 5000)))
                .isEqualTo("workerId is required");
        assertThat(EventRules.problem(heartbeat(" ", List.of("default"), List.of("HTTP"), 1, 5000)))
                .isEqualTo("workerId must not be blank");
        assertThat(EventRules.problem(heartbeat("w", List.of(), List.of("HTTP"), 1, 5000)))
                .isEqualTo("queues must hold 1 to 50 names, got 0");
        assertThat(EventRules.problem(heartbeat("w", List.of("default", "Images"), List.of("HTTP"), 1, 5000)))
                .isEqualTo("queues[1] must match [a-z0-9][a-z0-9-]{0,62}, got 'Images'");
        assertThat(EventRules.problem(heartbeat("w", List.of("default"), List.of("HTTP", "no type"), 1, 5000)))
                .startsWith("types[1] must match [A-Za-z]");
        assertThat(EventRules.problem(heartbeat("w", List.of("default"), List.of("HTTP", "HTTP"), 1, 5000)))
                .isEqualTo("types must not name one twice");
        assertThat(EventRules.problem(heartbeat("w", List.of("default"), List.of("HTTP"), 0, 5000)))
                .startsWith("capacity must be between 1");
        assertThat(EventRules.problem(heartbeat("w", List.of("default"), List.of("HTTP"), 1, 10)))
                .startsWith("intervalMs must be between 100");
        assertThat(EventRules.problem(new WorkerHeartbeatEvent("w", List.of("default"), List.of("HTTP"), 1, 5000,
                NOW, null, false))).isEqualTo("sentAt is required");
    }

    @Test
    void thePartitionsAWorkerHoldsAreOfItsOwnQueuesAndArePartitionNumbers() {
        assertThat(EventRules.problem(withPartitions(Map.of("default", List.of(0, 2), "images", List.of()))))
                .isNull();
        assertThat(EventRules.problem(withPartitions(null))).as("an older worker says nothing").isNull();
        assertThat(EventRules.problem(withPartitions(Map.of("billing", List.of(0)))))
                .isEqualTo("partitions names queue 'billing', which the worker does not serve");
        assertThat(EventRules.problem(withPartitions(Map.of("default", List.of(-1)))))
                .isEqualTo("partitions.default must hold partition numbers (0 or more), got -1");
        List<Integer> tooMany = java.util.stream.IntStream.range(0, WorkerHeartbeatEvent.MAX_PARTITIONS + 1).boxed()
                .toList();
        assertThat(EventRules.problem(withPartitions(Map.of("default", tooMany))))
                .isEqualTo("partitions must name at most 10000 partitions, got 10001");
    }

    @Test
    void theDefaultsAWorkerDeclaresAreOfItsOwnTypesWithinAJobsBounds() {
        assertThat(EventRules.problem(withDefaults(Map.of("HTTP", new WorkerHeartbeatEvent.TypeDefaults(30_000L,
                List.of(1_000L, 5_000L), Priority.HIGH))))).isNull();
        assertThat(EventRules.problem(withDefaults(Map.of("HTTP", new WorkerHeartbeatEvent.TypeDefaults(null, null,
                Priority.LOW))))).isNull();
        assertThat(EventRules.problem(withDefaults(Map.of("image.resize", new WorkerHeartbeatEvent.TypeDefaults(
                1L, null, null))))).isEqualTo("defaults names type 'image.resize', which the worker does not run");
        assertThat(EventRules.problem(withDefaults(Map.of("HTTP", new WorkerHeartbeatEvent.TypeDefaults(0L, null,
                null))))).isEqualTo("defaults.HTTP.timeoutMs must be between 1 and 86400000, got 0");
        assertThat(EventRules.problem(withDefaults(Map.of("HTTP", new WorkerHeartbeatEvent.TypeDefaults(null,
                List.of(), null))))).isEqualTo("defaults.HTTP.retryDelaysMs must hold 1 to 10 entries, got 0");
    }

    private static WorkerHeartbeatEvent withDefaults(Map<String, WorkerHeartbeatEvent.TypeDefaults> defaults) {
        return new WorkerHeartbeatEvent("w", List.of("default"), List.of("HTTP"), 1, 5000, NOW.minusSeconds(60), NOW,
                false, null, defaults);
    }

    private static WorkerHeartbeatEvent withPartitions(Map<String, List<Integer>> partitions) {
        return new WorkerHeartbeatEvent("w", List.of("default", "images"), List.of("HTTP"), 1, 5000,
                NOW.minusSeconds(60), NOW, false, partitions);
    }

    @Test
    void aRecordIsKeyedByItsWorker() {
        assertThat(EventRules.workerKeyProblem("w-1", "w-1")).isNull();
        assertThat(EventRules.workerKeyProblem("w-2", "w-1")).isEqualTo("the record's key must be its workerId w-1,"
                + " got 'w-2'");
        assertThat(EventRules.workerKeyProblem(null, "w-1")).startsWith("the record has no key");
    }

    @Test
    void aWorkerLivesThreeIntervalsAfterItsLastHeartbeatOrNotAtAllOnceItLeaves() {
        WorkerHeartbeatEvent living = heartbeat("w", List.of("default"), List.of("HTTP"), 1, 5000);
        assertThat(living.liveUntil()).isEqualTo(NOW.plusSeconds(15));
        assertThat(new WorkerHeartbeatEvent("w", List.of("default"), List.of("HTTP"), 1, 5000, NOW, NOW, true)
                .liveUntil()).isEqualTo(NOW);
    }
}
