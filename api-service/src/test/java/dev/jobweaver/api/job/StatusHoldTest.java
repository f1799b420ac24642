package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.event.JobStatusChangedEvent;
import dev.jobweaver.common.job.JobStatus;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the read model's hold writes when, and which polls it lets be acknowledged: a non-terminal status waits up to
 * the hold and is replaced by a newer one; a poll is released only when none of its events is held any more.
 */
class StatusHoldTest {

    private static final long HOLD = 250_000_000L;

    private final StatusHold<String, JobStatusChangedEvent> hold = new StatusHold<>(HOLD, 1000, e -> e);

    @Test
    void aTerminalStatusIsWrittenAtOnceAndItsPollReleased() {
        JobStatusChangedEvent completed = event(UUID.randomUUID(), JobStatus.COMPLETED, 2);

        var step = hold.offer("poll-1", 1, List.of(completed), 0);

        assertThat(step.write()).containsExactly(completed);
        assertThat(step.ackable()).containsExactly("poll-1");
        assertThat(step.sources()).containsExactly("poll-1");
        assertThat(hold.size()).isZero();
        assertThat(hold.untilNextDue(0)).isEqualTo(-1);
    }

    @Test
    void aRunningStatusFollowedByItsCompletionIsWrittenOnceAsTheCompletion() {
        UUID job = UUID.randomUUID();
        JobStatusChangedEvent running = event(job, JobStatus.RUNNING, 1);
        JobStatusChangedEvent completed = event(job, JobStatus.COMPLETED, 2);

        var first = hold.offer("poll-1", 1, List.of(running), 0);
        assertThat(first.write()).isEmpty();
        assertThat(first.ackable()).as("poll-1 still has a held event").isEmpty();
        assertThat(hold.untilNextDue(100_000_000L)).isEqualTo(HOLD - 100_000_000L);

        var second = hold.offer("poll-2", 1, List.of(completed), 100_000_000L);
        assertThat(second.write()).containsExactly(completed);
        assertThat(second.ackable()).containsExactlyInAnyOrder("poll-1", "poll-2");
        assertThat(second.stale()).as("the replaced RUNNING").isEqualTo(1);
        assertThat(hold.size()).isZero();
    }

    @Test
    void aHeldStatusIsWrittenWhenDueAndOnlyThenReleasesItsPoll() {
        UUID early = UUID.randomUUID();
        UUID late = UUID.randomUUID();
        JobStatusChangedEvent earlyRunning = event(early, JobStatus.RUNNING, 1);
        JobStatusChangedEvent lateRunning = event(late, JobStatus.RUNNING, 1);
        hold.offer("poll-1", 1, List.of(earlyRunning), 0);
        hold.offer("poll-2", 1, List.of(lateRunning), 200_000_000L);

        assertThat(hold.due(HOLD - 1).write()).as("nothing is due before the hold").isEmpty();

        var due = hold.due(HOLD);
        assertThat(due.write()).containsExactly(earlyRunning);
        assertThat(due.ackable()).containsExactly("poll-1");
        assertThat(due.sources()).containsExactly("poll-1");
        assertThat(hold.untilNextDue(HOLD)).isEqualTo(200_000_000L);

        var rest = hold.due(200_000_000L + HOLD);
        assertThat(rest.write()).containsExactly(lateRunning);
        assertThat(rest.ackable()).containsExactly("poll-2");
    }

    @Test
    void aPollIsReleasedOnlyWhenItsLastHeldEventIsGone() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        hold.offer("poll-1", 1, List.of(event(first, JobStatus.RUNNING, 1), event(second, JobStatus.RUNNING, 1)), 0);

        var one = hold.offer("poll-2", 1, List.of(event(first, JobStatus.COMPLETED, 2)), 10);
        assertThat(one.ackable()).containsExactly("poll-2");

        var both = hold.offer("poll-3", 1, List.of(event(second, JobStatus.FAILED, 3)), 20);
        assertThat(both.ackable()).containsExactlyInAnyOrder("poll-1", "poll-3");
    }

    @Test
    void aNewerNonTerminalStatusReplacesTheHeldOneAndIsHeldInTurn() {
        UUID job = UUID.randomUUID();
        hold.offer("poll-1", 1, List.of(event(job, JobStatus.RUNNING, 1)), 0);
        JobStatusChangedEvent retrying = event(job, JobStatus.PENDING, 2);

        var step = hold.offer("poll-2", 1, List.of(retrying), 100);

        assertThat(step.write()).isEmpty();
        assertThat(step.ackable()).as("poll-1's event was replaced; poll-2 holds the newer one").containsExactly("poll-1");
        assertThat(step.stale()).isEqualTo(1);
        assertThat(hold.all().write()).containsExactly(retrying);
    }

    @Test
    void anOlderOrRepeatedStatusBehindAHeldOneIsStaleAndNeverWritten() {
        UUID job = UUID.randomUUID();
        JobStatusChangedEvent retrying = event(job, JobStatus.PENDING, 3);
        hold.offer("poll-1", 1, List.of(retrying), 0);

        var step = hold.offer("poll-2", 1, List.of(event(job, JobStatus.FAILED, 2)), 10);

        assertThat(step.write()).as("an older terminal status is not written over a newer held one").isEmpty();
        assertThat(step.stale()).isEqualTo(1);
        assertThat(step.ackable()).containsExactly("poll-2");
        assertThat(hold.all().write()).containsExactly(retrying);
    }

    @Test
    void aZeroHoldWritesEverythingAtOnce() {
        StatusHold<String, JobStatusChangedEvent> none = new StatusHold<>(0, 1000, e -> e);
        JobStatusChangedEvent running = event(UUID.randomUUID(), JobStatus.RUNNING, 1);

        var step = none.offer("poll-1", 1, List.of(running), 0);

        assertThat(step.write()).containsExactly(running);
        assertThat(step.ackable()).containsExactly("poll-1");
        assertThat(none.size()).isZero();
    }

    @Test
    void pollsHeldPastTheRecordBoundHaveTheirOldestStatusesWrittenBeforeTheyAreDue() {
        StatusHold<String, JobStatusChangedEvent> bounded = new StatusHold<>(HOLD, 100, e -> e);
        JobStatusChangedEvent first = event(UUID.randomUUID(), JobStatus.RUNNING, 1);
        JobStatusChangedEvent second = event(UUID.randomUUID(), JobStatus.RUNNING, 1);
        JobStatusChangedEvent third = event(UUID.randomUUID(), JobStatus.RUNNING, 1);

        assertThat(bounded.offer("poll-1", 40, List.of(first), 0).write()).isEmpty();
        assertThat(bounded.offer("poll-2", 40, List.of(second), 10).write()).as("80 records held").isEmpty();
        var step = bounded.offer("poll-3", 40, List.of(third), 20);

        assertThat(step.write()).as("120 records held: the oldest poll's status goes, not yet due")
                .containsExactly(first);
        assertThat(step.ackable()).containsExactly("poll-1");
        assertThat(step.sources()).containsExactly("poll-1");
        assertThat(bounded.size()).isEqualTo(2);
        assertThat(bounded.due(HOLD + 10).write()).as("the others wait for their time").containsExactly(second);
    }

    @Test
    void aPollLargerThanTheRecordBoundHoldsNothing() {
        StatusHold<String, JobStatusChangedEvent> bounded = new StatusHold<>(HOLD, 100, e -> e);
        JobStatusChangedEvent running = event(UUID.randomUUID(), JobStatus.RUNNING, 1);

        var step = bounded.offer("poll-1", 101, List.of(running), 0);

        assertThat(step.write()).containsExactly(running);
        assertThat(step.ackable()).containsExactly("poll-1");
        assertThat(bounded.size()).isZero();
        assertThat(bounded.untilNextDue(0)).isEqualTo(-1);
    }

    private static JobStatusChangedEvent event(UUID job, JobStatus status, long version) {
        Instant now = Instant.now();
        return new JobStatusChangedEvent(job, status, version, 1, 0, 3, null, null, "0af7651916cd43dd8448eb211c80319c",
                now, now, status.isTerminal() ? now : null);
    }
}
