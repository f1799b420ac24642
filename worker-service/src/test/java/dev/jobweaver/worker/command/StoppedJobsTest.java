package dev.jobweaver.worker.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.job.JobCommand;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The cancelled and deleted jobs: bounded in number and in time, a DELETE never downgraded, safe across threads. */
class StoppedJobsTest {

    private static final Duration WINDOW = Duration.ofHours(24);

    /** A clock the test moves. */
    private static final class TestClock extends Clock {

        private Instant now = Instant.parse("2026-11-26T12:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    private final TestClock clock = new TestClock();

    @Test
    void aRecordedCommandIsKnownAndAnUnknownJobIsNot() {
        StoppedJobs jobs = new StoppedJobs(clock, WINDOW, 10);
        UUID cancelled = UUID.randomUUID();

        assertThat(jobs.record(cancelled, JobCommand.CANCEL, clock.instant())).isTrue();

        assertThat(jobs.command(cancelled)).isEqualTo(JobCommand.CANCEL);
        assertThat(jobs.command(UUID.randomUUID())).isNull();
    }

    @Test
    void aDeleteReplacesACancelAndIsNeverDowngraded() {
        StoppedJobs jobs = new StoppedJobs(clock, WINDOW, 10);
        UUID job = UUID.randomUUID();

        jobs.record(job, JobCommand.CANCEL, clock.instant());
        assertThat(jobs.record(job, JobCommand.CANCEL, clock.instant())).as("the same command again").isFalse();
        assertThat(jobs.record(job, JobCommand.DELETE, clock.instant())).isTrue();
        assertThat(jobs.record(job, JobCommand.CANCEL, clock.instant())).as("a CANCEL after the DELETE").isFalse();

        assertThat(jobs.command(job)).isEqualTo(JobCommand.DELETE);
        assertThat(jobs.size()).isEqualTo(1);
    }

    @Test
    void pastTheBoundTheOldestJobsAreForgottenFirst() {
        StoppedJobs jobs = new StoppedJobs(clock, WINDOW, 3);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            UUID id = UUID.randomUUID();
            ids.add(id);
            jobs.record(id, JobCommand.CANCEL, clock.instant());
            clock.advance(Duration.ofSeconds(1));
        }

        assertThat(jobs.size()).isEqualTo(3);
        assertThat(jobs.command(ids.get(0))).isNull();
        assertThat(jobs.command(ids.get(1))).isNull();
        assertThat(ids.subList(2, 5)).allSatisfy(id -> assertThat(jobs.command(id)).isEqualTo(JobCommand.CANCEL));
    }

    @Test
    void aJobThatMovedFromCancelToDeleteCountsOnceAgainstTheBound() {
        StoppedJobs jobs = new StoppedJobs(clock, WINDOW, 2);
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        jobs.record(first, JobCommand.CANCEL, clock.instant());
        jobs.record(second, JobCommand.CANCEL, clock.instant());
        jobs.record(first, JobCommand.DELETE, clock.instant());

        // The first job's CANCEL is the oldest entry, but its DELETE is younger than the second job's CANCEL.
        UUID third = UUID.randomUUID();
        jobs.record(third, JobCommand.CANCEL, clock.instant());

        assertThat(jobs.size()).isEqualTo(2);
        assertThat(jobs.command(second)).isNull();
        assertThat(jobs.command(first)).isEqualTo(JobCommand.DELETE);
        assertThat(jobs.command(third)).isEqualTo(JobCommand.CANCEL);
    }

    @Test
    void aCommandOlderThanTheWindowIsForgottenAndOneOlderOnArrivalIsNotRecorded() {
        StoppedJobs jobs = new StoppedJobs(clock, WINDOW, 10);
        UUID old = UUID.randomUUID();
        jobs.record(old, JobCommand.CANCEL, clock.instant());

        clock.advance(WINDOW.minusMinutes(1));
        assertThat(jobs.command(old)).as("still within the window").isEqualTo(JobCommand.CANCEL);
        clock.advance(Duration.ofMinutes(2));
        assertThat(jobs.command(old)).as("past the window, even before it is dropped").isNull();

        UUID stale = UUID.randomUUID();
        assertThat(jobs.record(stale, JobCommand.DELETE, clock.instant().minus(WINDOW).minusSeconds(1))).isFalse();
        assertThat(jobs.command(stale)).isNull();
        assertThat(jobs.size()).as("the next record dropped the expired job").isZero();
    }

    @Test
    void concurrentRecordsAndLookupsKeepTheBound() throws InterruptedException {
        StoppedJobs jobs = new StoppedJobs(Clock.systemUTC(), WINDOW, 1000);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        CountDownLatch done = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            threads.execute(() -> {
                for (int i = 0; i < 5000; i++) {
                    UUID id = UUID.randomUUID();
                    jobs.record(id, i % 2 == 0 ? JobCommand.CANCEL : JobCommand.DELETE, Instant.now());
                    jobs.command(id);
                }
                done.countDown();
            });
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        threads.shutdown();

        assertThat(jobs.size()).isEqualTo(1000);
    }

    @Test
    void runsWaitUntilCurrentButNoLongerThanTheCatchUpTime() {
        // a catch-up time long enough that a second wait of it cannot pass for a starved thread's delay
        StoppedJobs never = new StoppedJobs(clock, WINDOW, 10, Duration.ofSeconds(1));
        long started = System.nanoTime();
        assertThat(never.awaitCurrent()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(900),
                Duration.ofSeconds(10));
        started = System.nanoTime();
        assertThat(never.awaitCurrent()).as("the wait is over for good").isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));

        StoppedJobs current = new StoppedJobs(clock, WINDOW, 10, Duration.ofMinutes(1));
        Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            current.markCurrent();
        });
        assertThat(current.awaitCurrent()).isTrue();
        assertThat(current.isCurrent()).isTrue();
    }

    @Test
    void aBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> new StoppedJobs(clock, WINDOW, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max-entries");
    }
}
