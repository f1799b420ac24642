package dev.jobweaver.scheduler.job;

import static dev.jobweaver.scheduler.testing.Waits.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * What {@link JobTransitions} runs after a transaction, and in which order; and that a transaction that rolls back
 * runs none of it.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class JobTransitionsTest {

    @Inject
    JobTransitions transitions;

    @Inject
    CommittedEvents events;

    /** An instant no other transition asks for, which marks this test's event. */
    private static Instant marker() {
        return CommittedEvents.MARKED.plusSeconds(ThreadLocalRandom.current().nextLong(1, 1_000_000_000L));
    }

    @Test
    void afterTheCommitTheActionsThenTheCallersAfterCommitThenOneEventRun() {
        Instant due = marker();
        List<String> order = new CopyOnWriteArrayList<>();

        String result = transitions.run(t -> t.tx().query("SELECT 1").execute().map(rows -> {
            order.add("work");
            t.onCommit(() -> order.add("on commit"));
            t.wakeDispatcherAt(due, Instant.now(), System.nanoTime());
            t.wakeDispatcherAt(due.plusSeconds(60), Instant.now(), System.nanoTime());
            return "done";
        }), (item, t) -> {
            order.add("after commit " + item);
            assertThat(events.seen()).doesNotContain("event " + due);
        }).await().atMost(TIMEOUT);

        assertThat(result).isEqualTo("done");
        assertThat(order).containsExactly("work", "on commit", "after commit done");
        // The earliest of the two instants asked for, in one event.
        assertThat(events.seen()).containsOnlyOnce("event " + due).doesNotContain("event " + due.plusSeconds(60));
    }

    @Test
    void aTransactionThatRollsBackRunsNothingAfterIt() {
        Instant due = marker();
        List<String> order = new CopyOnWriteArrayList<>();
        IllegalStateException refused = new IllegalStateException("refused");

        Throwable failure = transitions.run(t -> t.tx().query("SELECT 1").execute().chain(rows -> {
                    t.onCommit(() -> order.add("on commit"));
                    t.wakeDispatcher();
                    t.wakeDispatcherAt(due, Instant.now(), System.nanoTime());
                    return Uni.createFrom().<String>failure(refused);
                }), (item, t) -> order.add("after commit"))
                .subscribe().withSubscriber(UniAssertSubscriber.create()).awaitFailure(TIMEOUT).getFailure();

        assertThat(failure).isSameAs(refused);
        assertThat(order).isEmpty();
        assertThat(events.seen()).doesNotContain("event " + due);
    }
}
