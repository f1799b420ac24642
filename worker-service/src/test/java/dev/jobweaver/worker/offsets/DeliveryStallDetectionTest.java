package dev.jobweaver.worker.offsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.worker.testing.PrometheusScrape;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * A partition held paused while the worker has free slots (as the connector once left one: worker README) is reported
 * after the stuck threshold (3 s in tests) in the health detail and the gauge, and cleared once its records flow.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class DeliveryStallDetectionTest {

    private static final TopicPartition P0 = new TopicPartition(Topics.RUN_JOB, 0);

    @Inject
    OutOfOrderCommitHandlerFactory handlers;

    @Test
    void aPausedPartitionWithFreeSlotsIsReportedAndClearedWhenItsRecordsFlow() throws Exception {
        OutOfOrderCommitHandler owner = await().atMost(Duration.ofSeconds(60)).until(this::ownerOfP0, h -> h != null);
        owner.consumer().runOnPollingThread(c -> {
            c.pause(Set.of(P0));
        }).await().atMost(Duration.ofSeconds(10));

        List<RunJobEvent> runs = new ArrayList<>();
        try (WorkerKafka kafka = new WorkerKafka()) {
            for (int i = 0; i < 3; i++) {
                RunJobEvent run = WorkerKafka.run(new Step.Log("held back"));
                runs.add(run);
                kafka.send(run, 0);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> stalled(owner));
            assertThat(PrometheusScrape.sum("jobweaver_worker_delivery_stalled", "partition=\"0\"")).isEqualTo(1.0);
            assertThat(runs).allSatisfy(r -> assertThat(kafka.outcomes(r.jobId())).isEmpty());

            owner.consumer().runOnPollingThread(c -> {
                c.resume(Set.of(P0));
            }).await().atMost(Duration.ofSeconds(10));

            await().atMost(Duration.ofSeconds(60))
                    .until(() -> runs.stream().allMatch(r -> !kafka.outcomes(r.jobId()).isEmpty()));
            await().atMost(Duration.ofSeconds(30)).until(() -> !stalled(owner));
            assertThat(PrometheusScrape.sum("jobweaver_worker_delivery_stalled", "partition=\"0\"")).isZero();
        }
    }

    private OutOfOrderCommitHandler ownerOfP0() {
        return handlers.handlers().stream()
                .filter(h -> h.report().stream().anyMatch(r -> r.topic().equals(P0.topic()) && r.partition() == 0))
                .findFirst().orElse(null);
    }

    private static boolean stalled(OutOfOrderCommitHandler handler) {
        return handler.report().stream()
                .anyMatch(r -> r.topic().equals(P0.topic()) && r.partition() == 0 && r.deliveryStalled());
    }
}
