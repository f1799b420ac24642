package dev.jobweaver.worker.run;

import dev.jobweaver.testing.JobWeaverTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.worker.offsets.OutOfOrderCommitHandler;
import dev.jobweaver.worker.offsets.OutOfOrderCommitHandlerFactory;
import dev.jobweaver.worker.testing.HeldCalls;
import dev.jobweaver.worker.testing.Peak;
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
 * Back-pressure: more records than run slots. The runs in progress never exceed the bound; the excess waits in the
 * connector, which pauses partitions while its poll loop keeps running; every record still runs in the end.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_worker")
class RunDispatcherTest {

    private static final int JOBS = 90;

    @Inject
    RunDispatcher dispatcher;

    @Inject
    OutOfOrderCommitHandlerFactory handlers;

    @Inject
    WorkerConfig config;

    @Test
    void inFlightWorkIsBoundedByPausingPartitionsNotByBlockingThePollLoop() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> dispatcher.running() == 0);
        int bound = config.maxInFlight();
        Peak highest = Peak.of(dispatcher::running);

        List<RunJobEvent> runs = new ArrayList<>();
        // Every run is held until the bound and the paused partitions have been seen, however fast the machine.
        try (highest; WorkerKafka kafka = new WorkerKafka(); HeldCalls held = HeldCalls.start()) {
            for (int i = 0; i < JOBS; i++) {
                RunJobEvent run = held.job();
                runs.add(run);
                kafka.send(run, i % 3);
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> dispatcher.running() == bound);
            // The consumers holding the excess pause their partitions; their polling threads still answer at once.
            await().atMost(Duration.ofSeconds(30)).until(() -> !paused().isEmpty());
            for (OutOfOrderCommitHandler handler : handlers.handlers()) {
                long started = System.nanoTime();
                handler.pausedPartitions();
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
            }
            runs.forEach(held::release);

            await().atMost(Duration.ofSeconds(120))
                    .until(() -> runs.stream().allMatch(r -> !kafka.outcomes(r.jobId()).isEmpty()));
            // Resumed once drained: nothing stays paused.
            await().atMost(Duration.ofSeconds(30)).until(() -> paused().isEmpty());
        }
        assertThat(highest.highest()).isEqualTo(bound);
    }

    private Set<TopicPartition> paused() {
        return handlers.handlers().stream()
                .flatMap(h -> h.pausedPartitions().stream())
                .collect(java.util.stream.Collectors.toSet());
    }
}
