package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.ended;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Submit-to-start grouped by the priority each job was sent with. */
class PriorityLevelsTest {

    private static JobRecord job(Priority sent, Priority recorded, long startMs) {
        JobRecord job = completed(JobKind.NOOP, 0, startMs, startMs + 5);
        return job.withControl(Control.of(sent), null, recorded);
    }

    @Test
    void eachLevelHasItsOwnPercentilesAndCountsHighestFirst() {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            jobs.add(job(Priority.HIGH, Priority.HIGH, i));
        }
        for (int i = 1; i <= 3; i++) {
            jobs.add(job(Priority.NORMAL, Priority.NORMAL, 100 * i));
        }
        jobs.add(job(Priority.LOW, Priority.LOW, 1_000));
        java.util.Collections.shuffle(jobs, new java.util.Random(7));

        List<PriorityLevels.Level> levels = PriorityLevels.of(jobs);

        assertThat(levels).extracting(PriorityLevels.Level::priority)
                .containsExactly(Priority.HIGH, Priority.NORMAL, Priority.LOW);
        PriorityLevels.Level high = levels.get(0);
        assertThat(high.accepted()).isEqualTo(6);
        assertThat(high.completed()).isEqualTo(6);
        assertThat(high.toStart().count()).isEqualTo(6);
        assertThat(high.toStart().max()).isEqualTo(6);
        assertThat(high.toStart().p50()).isBetween(3.0, 3.01);
        PriorityLevels.Level normal = levels.get(1);
        assertThat(normal.accepted()).isEqualTo(3);
        assertThat(normal.toStart().p50()).isBetween(200.0, 200.2);
        assertThat(normal.toStart().max()).isEqualTo(300);
        assertThat(levels.get(2).toStart().max()).isEqualTo(1_000);
        assertThat(levels).allSatisfy(l -> assertThat(l.recordedOtherwise()).isZero());
    }

    @Test
    void aLevelWithoutJobsIsLeftOutAndJobsSentWithoutAPriorityAreNotCounted() {
        List<JobRecord> jobs = List.of(job(Priority.LOW, Priority.LOW, 4), completed(JobKind.NOOP, 0, 9, 10));
        assertThat(PriorityLevels.of(jobs)).extracting(PriorityLevels.Level::priority).containsExactly(Priority.LOW);
        assertThat(PriorityLevels.of(List.of(completed(JobKind.NOOP, 0, 9, 10)))).isEmpty();
    }

    @Test
    void unfinishedJobsCountAsAcceptedButNotCompletedAndNotInThePercentiles() {
        JobRecord lost = ended(JobKind.NOOP, null, 0, 0).withControl(Control.of(Priority.HIGH), null, null);
        List<PriorityLevels.Level> levels = PriorityLevels.of(List.of(job(Priority.HIGH, Priority.HIGH, 4), lost));
        assertThat(levels.getFirst().accepted()).isEqualTo(2);
        assertThat(levels.getFirst().completed()).isEqualTo(1);
        assertThat(levels.getFirst().toStart().count()).isEqualTo(1);
    }

    @Test
    void aPriorityTheSchedulerStoredOtherwiseIsCountedUnknownIsNot() {
        List<PriorityLevels.Level> levels = PriorityLevels.of(List.of(job(Priority.HIGH, Priority.NORMAL, 4),
                job(Priority.HIGH, Priority.HIGH, 4), job(Priority.HIGH, null, 4)));
        assertThat(levels.getFirst().recordedOtherwise()).isEqualTo(1);
    }

    @Test
    void theWorkloadResultCarriesTheLevelsOnlyWhenJobsWereSentWithAPriority() {
        WorkloadResult burst = WorkloadResult.of(Workload.BURST, Fixtures.submission(1),
                List.of(completed(JobKind.NOOP, 0, 4, 10)), "");
        assertThat(burst.byPriority()).isEmpty();
        assertThat(burst.lateness()).isEqualTo(Lateness.NONE);
        WorkloadResult priorities = WorkloadResult.of(Workload.PRIORITIES, Fixtures.submission(2),
                List.of(job(Priority.HIGH, Priority.HIGH, 4), job(Priority.LOW, Priority.LOW, 40)), "");
        assertThat(priorities.byPriority()).hasSize(2);
        assertThat(priorities.ranJobs()).isTrue();
    }
}
