package dev.jobweaver.common.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Priority;
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
    void aJobGetsTheDefaultsItsTypesWorkersDeclareWhereItSetsNothing() {
        WorkerHeartbeatEvent.TypeDefaults declared = new WorkerHeartbeatEvent.TypeDefaults(5_000L, List.of(1_000L),
                Priority.HIGH);
        LiveWorkers live = LiveWorkers.of(List.of(new WorkerStore.LiveWorker("invoices", List.of("billing"),
                List.of("invoice.total"), 4, T, T, null, Map.of("invoice.total", declared))));

        JobControl filled = live.withDefaults(null, "invoice.total");
        assertThat(filled.timeoutMs()).isEqualTo(5_000L);
        assertThat(filled.retryDelaysMs()).containsExactly(1_000L);
        assertThat(filled.priority()).isEqualTo(Priority.HIGH);

        JobControl own = new JobControl(Priority.LOW, null, 60_000L, null, "acme", Map.of("k", "v"), "billing");
        JobControl kept = live.withDefaults(own, "invoice.total");
        assertThat(kept.priority()).as("the job's own fields win").isEqualTo(Priority.LOW);
        assertThat(kept.timeoutMs()).isEqualTo(60_000L);
        assertThat(kept.retryDelaysMs()).as("only what it left unset is filled").containsExactly(1_000L);
        assertThat(kept.tenant()).isEqualTo("acme");
        assertThat(kept.labels()).isEqualTo(Map.of("k", "v"));
        assertThat(kept.queue()).isEqualTo("billing");

        assertThat(live.withDefaults(own, "SIMULATION")).as("another type: unchanged").isSameAs(own);
        assertThat(LiveWorkers.UNKNOWN.withDefaults(own, "invoice.total")).isSameAs(own);
    }

    @Test
    void whereWorkersOfOneTypeDisagreeTheDefaultsOfTheFirstByIdApply() {
        LiveWorkers live = LiveWorkers.of(List.of(
                new WorkerStore.LiveWorker("b", List.of("default"), List.of("x"), 1, T, T, null,
                        Map.of("x", new WorkerHeartbeatEvent.TypeDefaults(2L, null, null))),
                new WorkerStore.LiveWorker("a", List.of("default"), List.of("x"), 1, T, T, null,
                        Map.of("x", new WorkerHeartbeatEvent.TypeDefaults(1L, null, null)))));

        assertThat(live.defaultsFor("x").timeoutMs()).isEqualTo(1L);
        assertThat(live.defaultsFor("y")).isNull();
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
