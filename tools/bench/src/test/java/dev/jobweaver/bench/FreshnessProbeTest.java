package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.T0;
import static dev.jobweaver.bench.Fixtures.at;
import static dev.jobweaver.bench.Fixtures.completed;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Which jobs the probe follows, and the time it gives each: the start of the lookup that first found it terminal. */
class FreshnessProbeTest {

    /** A database whose terminal jobs the test sets, remembering every lookup's ids. */
    private static final class FakeDb implements FreshnessProbe.TerminalCheck {
        final Set<UUID> terminal = new HashSet<>();
        final List<Set<UUID>> lookups = new ArrayList<>();

        @Override
        public Set<UUID> terminal(Collection<UUID> ids) {
            lookups.add(Set.copyOf(ids));
            Set<UUID> done = new HashSet<>(ids);
            done.retainAll(terminal);
            return done;
        }
    }

    private final AtomicReference<Instant> now = new AtomicReference<>(T0);
    private final InstantSource clock = now::get;
    private final FakeDb db = new FakeDb();

    private static Accepted accepted(UUID id) {
        return new Accepted(id, JobKind.NOOP, T0, 1);
    }

    @Test
    void aJobGetsTheStartOfTheFirstLookupThatFoundItTerminal() {
        FreshnessProbe probe = new FreshnessProbe(db, clock);
        JobRecord job = completed(JobKind.NOOP, 0, 5, 30).withVisibleProbedAt(null);
        probe.offer(accepted(job.jobId()));

        now.set(at(20));
        probe.pollOnce();
        db.terminal.add(job.jobId());
        now.set(at(41));
        probe.pollOnce();
        now.set(at(52));
        probe.pollOnce();

        JobRecord seen = probe.withProbedVisibility(List.of(job)).getFirst();
        assertThat(seen.visibleProbedAt()).isEqualTo(at(41));
        assertThat(seen.finishToVisibleMs()).isEqualTo(11.0);
        assertThat(db.lookups).as("a job seen terminal is not looked up again").hasSize(2);
    }

    @Test
    void atMostAHundredFollowedJobsAreOpenAtOnceAndASeenOneFreesItsPlace() {
        FreshnessProbe probe = new FreshnessProbe(db, clock);
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < FreshnessProbe.MAX_FOLLOWED + 5; i++) {
            ids.add(UUID.randomUUID());
            probe.offer(accepted(ids.getLast()));
        }
        probe.pollOnce();
        assertThat(db.lookups.getLast()).hasSize(FreshnessProbe.MAX_FOLLOWED)
                .containsExactlyInAnyOrderElementsOf(ids.subList(0, FreshnessProbe.MAX_FOLLOWED));

        db.terminal.add(ids.getFirst());
        probe.pollOnce();
        UUID later = UUID.randomUUID();
        probe.offer(accepted(later));
        probe.pollOnce();
        assertThat(db.lookups.getLast()).hasSize(FreshnessProbe.MAX_FOLLOWED).contains(later)
                .doesNotContain(ids.getFirst());
    }

    @Test
    void jobsItDidNotFollowOrNeverSawTerminalHaveNoTime() {
        FreshnessProbe probe = new FreshnessProbe(db, clock);
        JobRecord followed = completed(JobKind.NOOP, 0, 5, 30).withVisibleProbedAt(null);
        JobRecord other = completed(JobKind.NOOP, 0, 5, 30).withVisibleProbedAt(null);
        probe.offer(accepted(followed.jobId()));
        probe.pollOnce();
        List<JobRecord> records = probe.withProbedVisibility(List.of(followed, other));
        assertThat(records).extracting(JobRecord::visibleProbedAt).containsOnlyNulls();
        assertThat(records.getFirst().finishToVisibleMs()).isNaN();
    }

    @Test
    void noLookupWithoutOpenJobs() {
        new FreshnessProbe(db, clock).pollOnce();
        assertThat(db.lookups).isEmpty();
    }

    @Test
    void itsThreadLooksUpUntilStoppedAndADatabaseErrorIsKeptAsAProblem() throws Exception {
        JobRecord job = completed(JobKind.NOOP, 0, 5, 30).withVisibleProbedAt(null);
        FreshnessProbe probe = new FreshnessProbe(ids -> Set.copyOf(ids), InstantSource.system()).start();
        probe.offer(accepted(job.jobId()));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (probe.withProbedVisibility(List.of(job)).getFirst().visibleProbedAt() == null) {
            assertThat(System.nanoTime()).as("seen within 10 s").isLessThan(deadline);
            Thread.sleep(5);
        }
        probe.stop();
        assertThat(probe.problem()).isNull();

        FreshnessProbe broken = new FreshnessProbe(ids -> {
            throw new IllegalStateException("connection lost");
        }, InstantSource.system()).start();
        broken.offer(accepted(UUID.randomUUID()));
        deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (broken.problem() == null) {
            assertThat(System.nanoTime()).as("failed within 10 s").isLessThan(deadline);
            Thread.sleep(5);
        }
        broken.stop();
        assertThat(broken.problem()).isEqualTo("connection lost");
    }
}
