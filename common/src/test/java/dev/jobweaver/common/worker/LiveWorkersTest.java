package dev.jobweaver.common.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which pairs the live workers serve, what a job waits for, and where a run of a type only some of a queue's workers
 * declare is aimed.
 */
class LiveWorkersTest {

    private static final Instant T = Instant.parse("2026-11-30T07:00:00Z");

    private static WorkerStore.LiveWorker worker(String id, String queue, List<String> types,
                                                 Map<String, List<Integer>> partitions) {
        return new WorkerStore.LiveWorker(id, List.of(queue), types, 4, T, T, partitions);
    }

    @Test
    void aQueueWhoseWorkersAllDeclareTheTypeTakesTheRunOnAnyPartition() {
        LiveWorkers live = LiveWorkers.of(List.of(
                worker("a", "default", List.of("SIMULATION", "HTTP"), Map.of("default", List.of(0))),
                worker("b", "default", List.of("SIMULATION", "HTTP"), Map.of("default", List.of(1, 2)))));

        assertThat(live.partitionsFor("default", "SIMULATION")).isNull();
        assertThat(live.partitionsFor(null, "HTTP")).as("null is the default queue").isNull();
    }

    @Test
    void aTypeOnlySomeWorkersOfTheQueueDeclareIsAimedAtThePartitionsTheyHold() {
        LiveWorkers live = LiveWorkers.of(List.of(
                worker("standard", "billing", List.of("SIMULATION"), Map.of("billing", List.of(0))),
                worker("invoices-1", "billing", List.of("invoice.total"), Map.of("billing", List.of(2))),
                worker("invoices-2", "billing", List.of("invoice.total"), Map.of("billing", List.of(1))),
                worker("elsewhere", "reports", List.of("SIMULATION"), Map.of("reports", List.of(0)))));

        assertThat(live.partitionsFor("billing", "invoice.total")).containsExactly(1, 2);
        assertThat(live.partitionsFor("billing", "SIMULATION")).containsExactly(0);
        assertThat(live.partitionsFor("reports", "SIMULATION")).as("another queue's workers count not").isNull();
    }

    @Test
    void withoutThePartitionsOfTheWorkersThatDeclareItARunIsNotAimed() {
        LiveWorkers older = LiveWorkers.of(List.of(
                worker("standard", "billing", List.of("SIMULATION"), Map.of("billing", List.of(0))),
                worker("invoices", "billing", List.of("invoice.total"), null)));

        assertThat(older.partitionsFor("billing", "invoice.total")).isNull();
        assertThat(LiveWorkers.UNKNOWN.partitionsFor("billing", "invoice.total")).isNull();
    }

    @Test
    void aJobWaitsForAWorkerOfItsQueueAndType() {
        LiveWorkers live = LiveWorkers.of(List.of(worker("a", "default", List.of("HTTP"), null)));

        assertThat(live.waitingFor(null, "HTTP")).isNull();
        assertThat(live.waitingFor("default", "report.monthly"))
                .isEqualTo("a worker for type report.monthly on queue default");
        assertThat(live.waitingFor("billing", "HTTP")).isEqualTo("a worker for type HTTP on queue billing");
        assertThat(LiveWorkers.UNKNOWN.waitingFor("billing", "HTTP")).as("before the first read").isNull();
    }
}
