package dev.jobweaver.worker.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.worker.WorkerIdentity;
import dev.jobweaver.worker.testing.WorkerKafka;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.Test;

/** The drain of the dispatcher, without Kafka: no new runs, runs in progress get the grace period, not more. */
class RunDispatcherDrainTest {

    @Test
    void drainingRefusesNewRunsAndWaitsForTheRunsInProgress() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        FakeRunner runner = new FakeRunner(release);
        RunDispatcher dispatcher = new RunDispatcher(runner, new Config(2, Duration.ofSeconds(10)), new SimpleMeterRegistry());

        Uni<Void> first = dispatcher.submit(message());
        Uni<Void> second = dispatcher.submit(message());
        Message<byte[]> third = message();
        var waiting = dispatcher.submit(third).subscribeAsCompletionStage();
        first.await().atMost(Duration.ofSeconds(1));
        second.await().atMost(Duration.ofSeconds(1));
        assertThat(waiting).isNotDone(); // no slot: the channel asks for nothing more
        runner.started.await(5, TimeUnit.SECONDS);
        assertThat(dispatcher.running()).isEqualTo(2);

        dispatcher.startDraining();
        assertThat(dispatcher.submit(message()).await().atMost(Duration.ofSeconds(1))).isNull(); // refused, not run
        Thread.ofVirtual().start(() -> {
            sleep(300);
            release.countDown();
        });
        assertThat(dispatcher.awaitIdle()).isTrue();
        assertThat(dispatcher.running()).isZero();
        waiting.get(1, TimeUnit.SECONDS); // released, but the waiting record was not started while draining
        assertThat(runner.ran).hasSize(2).doesNotContain(third);
    }

    @Test
    void theGracePeriodEndsTheWait() {
        FakeRunner runner = new FakeRunner(new CountDownLatch(1)); // never released
        RunDispatcher dispatcher = new RunDispatcher(runner, new Config(4, Duration.ofMillis(300)), new SimpleMeterRegistry());
        dispatcher.submit(message()).await().atMost(Duration.ofSeconds(1));
        long started = System.nanoTime();
        assertThat(dispatcher.awaitIdle()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(200), Duration.ofSeconds(3));
        assertThat(dispatcher.isPastGracePeriod()).isTrue();
        assertThat(dispatcher.running()).isEqualTo(1);
    }

    private static Message<byte[]> message() {
        try {
            return Message.of(WorkerKafka.JSON.writeValueAsBytes(WorkerKafka.run(new Step.Log("x"))));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records what it was asked to run and blocks until released. */
    private static final class FakeRunner extends JobRunner {
        final List<Message<byte[]>> ran = new CopyOnWriteArrayList<>();
        final CountDownLatch started = new CountDownLatch(2);
        private final CountDownLatch release;

        FakeRunner(CountDownLatch release) {
            super(null, null, null, null, null, new Config(1, Duration.ZERO), null, new SimpleMeterRegistry(),
                    null, new WorkerIdentity(new Config(1, Duration.ZERO)));
            this.release = release;
        }

        @Override
        public void run(Message<byte[]> message) {
            ran.add(message);
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private record Config(int maxInFlight, Duration shutdownGracePeriod) implements WorkerConfig {
        @Override
        public Optional<String> workerId() {
            return Optional.of("test-worker");
        }

        @Override
        public Optional<Integer> computePermits() {
            return Optional.empty();
        }

        @Override
        public List<String> queues() {
            return List.of("default");
        }

        @Override
        public int queuePartitions() {
            return 3;
        }

        @Override
        public Duration heartbeatInterval() {
            return Duration.ofSeconds(5);
        }

        @Override
        public Run run() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Offsets offsets() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Commands commands() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Attempts attempts() {
            throw new UnsupportedOperationException();
        }
    }
}
