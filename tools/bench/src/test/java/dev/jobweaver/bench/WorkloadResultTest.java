package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.ended;
import static dev.jobweaver.bench.Fixtures.submission;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkloadResultTest {

    @Test
    void throughputIsCompletedOverFirstSubmitToLastCompletion() {
        List<JobRecord> jobs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            jobs.add(completed(JobKind.NOOP, i * 10, i * 10 + 5, i * 10 + 20));
        }
        WorkloadResult r = WorkloadResult.of(Workload.BURST, submission(100), jobs, "");
        // first submit at 0, last completion at 1010 ms
        assertThat(r.throughput()).isCloseTo(100 / 1.010, within(1e-9));
        // visible 2 ms after each completion (fixture): last at 1012 ms
        assertThat(r.visibleThroughput()).isCloseTo(100 / 1.012, within(1e-9));
        assertThat(r.noopThroughput()).as("only one kind: not reported").isNaN();
        assertThat(r.toStart().p50()).isEqualTo(5);
        assertThat(r.toFinish().max()).isEqualTo(20);
        assertThat(r.accept().p99()).isEqualTo(5);
        // the probe saw each job 2 ms after its finish (fixture)
        assertThat(r.finishToVisible().p99()).isEqualTo(2);
        assertThat(r.finishToVisible().count()).isEqualTo(100);
        assertThat(r.correctness().ok()).isTrue();
        assertThat(r.completionsPerSecond()).containsExactly(98, 2);
    }

    @Test
    void sleepersReportNoOpThroughputApart() {
        List<JobRecord> jobs = List.of(completed(JobKind.NOOP, 0, 1, 500), completed(JobKind.NOOP, 0, 1, 1000),
                completed(JobKind.SLEEPER, 0, 1, 5000));
        WorkloadResult r = WorkloadResult.of(Workload.SLEEPERS, submission(3), jobs, "");
        assertThat(r.noopThroughput()).isEqualTo(2.0);
        assertThat(r.throughput()).isEqualTo(3 / 5.0);
    }

    @Test
    void unfinishedJobsCountAsLostAndOutOfTheThroughput() {
        List<JobRecord> jobs = List.of(completed(JobKind.NOOP, 0, 1, 1000), ended(JobKind.NOOP, "PENDING", 0, 0));
        WorkloadResult r = WorkloadResult.of(Workload.BURST, submission(2), jobs, "");
        assertThat(r.throughput()).isEqualTo(1.0);
        assertThat(r.correctness().lost()).isEqualTo(1);
        assertThat(r.toFinish().count()).isEqualTo(1);
        assertThat(r.finishToVisible().count()).as("only COMPLETED jobs").isEqualTo(1);
    }

    @Test
    void unavailableCarriesItsReason() {
        WorkloadResult r = WorkloadResult.unavailable(Workload.RETRIES, "no times");
        assertThat(r.available()).isFalse();
        assertThat(r.note()).isEqualTo("no times");
        assertThat(r.throughput()).isNaN();
    }
}
