package dev.jobweaver.worker.offsets;

import dev.jobweaver.testing.JobWeaverTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.worker.run.RunDispatcher;
import dev.jobweaver.worker.offsets.PartitionOffsets.Admission;
import dev.jobweaver.worker.testing.HeldCalls;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import dev.jobweaver.worker.testing.WorkerKafkaTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * A second worker joins the group while slow jobs hold the committed offsets: it gets partitions with the completed
 * offsets above the committed one in the metadata, and nothing completed there runs again, neither on it nor on the
 * worker when the partition comes back.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class OutOfOrderCommitRebalanceTest extends WorkerKafkaTest {

    private static final int PARTITIONS = 3;

    @Inject
    RunDispatcher dispatcher;

    @Test
    void aJoiningWorkerSkipsTheRecordsCompletedAboveTheCommittedOffset() {
        await().atMost(WAIT).until(() -> dispatcher.running() == 0);
        try (HeldCalls held = HeldCalls.start()) {
            joinAndLeave(held);
        }
    }

    /** The slow jobs are {@code held}'s: they hold the committed offsets until the second worker has left. */
    private void joinAndLeave(HeldCalls held) {
        Map<Integer, Long> slowOffset = new HashMap<>();
        Map<Integer, List<Long>> fastOffsets = new HashMap<>();
        Map<Integer, List<RunJobEvent>> fastRuns = new HashMap<>();
        List<RunJobEvent> slowRuns = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            RunJobEvent slow = held.job();
            slowRuns.add(slow);
            slowOffset.put(p, kafka.send(slow, p).offset());
            for (int i = 0; i < 3; i++) {
                RunJobEvent run = WorkerKafka.run(new Step.Log("fast " + UUID.randomUUID()));
                fastRuns.computeIfAbsent(p, k -> new ArrayList<>()).add(run);
                fastOffsets.computeIfAbsent(p, k -> new ArrayList<>()).add(kafka.send(run, p).offset());
            }
        }
        List<RunJobEvent> allFast = fastRuns.values().stream().flatMap(List::stream).toList();
        await().atMost(WAIT).until(() -> allFast.stream().allMatch(r -> kafka.outcomes(r.jobId()).size() == 1));
        await().atMost(WAIT).untilAsserted(() -> {
            for (int p = 0; p < PARTITIONS; p++) {
                OffsetAndMetadata committed = kafka.committed(p);
                assertThat(committed).isNotNull();
                assertThat(committed.offset()).isEqualTo(slowOffset.get(p));
                assertThat(CompletedOffsetsCodec.decode(committed.metadata())).isPresent();
            }
        });
        double skippedBefore = PrometheusScrape.sum("jobweaver_worker_skipped_records_total");

        Set<TopicPartition> taken;
        try (KafkaConsumer<String, String> second = secondWorker()) {
            second.subscribe(List.of(Topics.RUN_JOB));
            List<ConsumerRecord<String, String>> polled = new ArrayList<>();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (second.assignment().isEmpty() && System.nanoTime() < deadline) {
                second.poll(Duration.ofMillis(200)).forEach(polled::add);
            }
            taken = Set.copyOf(second.assignment());
            assertThat(taken).as("the joining worker takes partitions").isNotEmpty();

            Map<TopicPartition, OffsetAndMetadata> handedOver = second.committed(taken);
            for (TopicPartition tp : taken) {
                long slow = slowOffset.get(tp.partition());
                long lastFast = fastOffsets.get(tp.partition()).getLast();
                while (polled.stream().noneMatch(r -> r.partition() == tp.partition() && r.offset() == lastFast)
                        && System.nanoTime() < deadline) {
                    second.poll(Duration.ofMillis(200)).forEach(polled::add);
                }
                OffsetAndMetadata committed = handedOver.get(tp);
                assertThat(committed.offset()).isEqualTo(slow);
                assertThat(CompletedOffsetsCodec.decode(committed.metadata()).orElseThrow().completed())
                        .containsAll(fastOffsets.get(tp.partition()));

                // What a worker would run, deciding from the committed metadata: only the slow record.
                PartitionOffsets newOwner = new PartitionOffsets(committed.offset(), committed.metadata());
                List<Long> wouldRun = polled.stream()
                        .filter(r -> r.partition() == tp.partition() && r.offset() <= lastFast)
                        .filter(r -> newOwner.received(r.offset(), System.nanoTime()) == Admission.RUN)
                        .map(ConsumerRecord::offset)
                        .toList();
                assertThat(wouldRun).containsExactly(slow);
            }
        } // leaves without committing: the partitions go back to the worker
        slowRuns.forEach(held::release);

        // The worker gets them back, reads the same metadata, skips the fast records and commits past them.
        await().atMost(WAIT).untilAsserted(() -> {
            for (TopicPartition tp : taken) {
                assertThat(kafka.committed(tp.partition()).offset())
                        .isEqualTo(fastOffsets.get(tp.partition()).getLast() + 1);
            }
        });
        // At least the fast records of the partitions that came back were skipped (eager rebalancing re-delivers the
        // worker's other partitions too, whose fast records it skips as well).
        assertThat(PrometheusScrape.sum("jobweaver_worker_skipped_records_total"))
                .isGreaterThanOrEqualTo(skippedBefore + 3 * taken.size());
        assertThat(allFast).allSatisfy(r -> assertThat(kafka.outcomes(r.jobId())).hasSize(1));
    }

    private static KafkaConsumer<String, String> secondWorker() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, WorkerKafka.bootstrap());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, WorkerKafka.GROUP);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "second-worker-" + UUID.randomUUID());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RangeAssignor.class.getName());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return new KafkaConsumer<>(p);
    }
}
