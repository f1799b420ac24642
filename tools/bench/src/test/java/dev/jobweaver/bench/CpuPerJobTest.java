package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.submission;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** CPU per completed job: readings cut to the window pro rata, the platform apart from the bench, the ceiling. */
class CpuPerJobTest {

    private static final double EPS = 1e-9;

    @Test
    void readingsInsideTheWindowCountWhole() {
        // api: 50% of a core over 1 s twice = 1 CPU second; bench: 10% over 2 s = 0.2 s; 100 jobs.
        List<ResourceSample> samples = List.of(
                new ResourceSample(1_000, "api-service", 1, Double.NaN),
                new ResourceSample(1_000, Bench.SELF, 1, Double.NaN),
                new ResourceSample(2_000, "api-service", 1, 50),
                new ResourceSample(3_000, "api-service", 1, 50),
                new ResourceSample(3_000, Bench.SELF, 1, 10));

        CpuPerJob cpu = CpuPerJob.of(samples, 1_000, 3_000, 100, 2);

        assertThat(cpu.ms("api-service")).isCloseTo(10.0, within(EPS));
        assertThat(cpu.ms(Bench.SELF)).isCloseTo(2.0, within(EPS));
        assertThat(cpu.platformMs()).as("the bench is not the platform").isCloseTo(10.0, within(EPS));
        assertThat(cpu.benchMs()).isCloseTo(2.0, within(EPS));
        assertThat(cpu.ceilingJobsPerSecond()).as("2 cores / 12 ms a job").isCloseTo(2_000.0 / 12, within(EPS));
        assertThat(cpu.msByProcess().keySet()).containsExactly("api-service", Bench.SELF);
    }

    @Test
    void aReadingThatStraddlesAnEdgeCountsOnlyItsShareInside() {
        // 100% of a core from 0 to 2,000 ms; the window starts at 1,500: 0.5 s inside. Then 100% to 4,000, the
        // window ends at 3,000: another 1 s. Readings before the window's start and after its end add nothing.
        List<ResourceSample> samples = List.of(
                new ResourceSample(0, "kafka", 1, Double.NaN),
                new ResourceSample(2_000, "kafka", 1, 100),
                new ResourceSample(4_000, "kafka", 1, 100),
                new ResourceSample(6_000, "kafka", 1, 100));

        CpuPerJob cpu = CpuPerJob.of(samples, 1_500, 3_000, 10, 2);

        assertThat(cpu.ms("kafka")).isCloseTo(1_500.0 / 10, within(EPS));
    }

    @Test
    void aReadingWithoutAFigureStartsAnIntervalButCountsNothing() {
        List<ResourceSample> samples = List.of(
                new ResourceSample(0, "worker-service", 1, Double.NaN),
                new ResourceSample(1_000, "worker-service", 1, Double.NaN),
                new ResourceSample(2_000, "worker-service", 1, 40));

        CpuPerJob cpu = CpuPerJob.of(samples, 0, 2_000, 4, 2);

        assertThat(cpu.ms("worker-service")).as("only 1,000-2,000 at 40%").isCloseTo(100.0, within(EPS));
    }

    @Test
    void nothingCompletedOrNothingReadIsNoFigure() {
        List<ResourceSample> samples = List.of(new ResourceSample(0, "api-service", 1, Double.NaN),
                new ResourceSample(1_000, "api-service", 1, 50));

        assertThat(CpuPerJob.of(samples, 0, 1_000, 0, 2).measured()).isFalse();
        assertThat(CpuPerJob.of(samples, 5_000, 6_000, 10, 2).measured()).as("no reading in the window").isFalse();
        assertThat(CpuPerJob.of(List.of(), 0, 1_000, 10, 2)).isEqualTo(CpuPerJob.NONE);
        assertThat(Targets.ceiling(CpuPerJob.NONE)).isEmpty();
    }

    @Test
    void aWorkloadsWindowRunsFromItsFirstSubmissionToItsLastCompletion() {
        // Jobs submitted at T0+0 and T0+1,000 ms, finished at T0+2,000 and T0+4,000: the window is T0..T0+4,000.
        WorkloadResult burst = WorkloadResult.of(Workload.BURST, submission(2),
                List.of(completed(JobKind.NOOP, 0, 500, 2_000), completed(JobKind.NOOP, 1_000, 1_500, 4_000)), "");
        long t0 = Fixtures.T0.toEpochMilli();
        List<ResourceSample> samples = List.of(
                new ResourceSample(t0 - 2_000, "scheduler-service", 1, Double.NaN),
                new ResourceSample(t0, "scheduler-service", 1, 100),
                new ResourceSample(t0 + 4_000, "scheduler-service", 1, 25),
                new ResourceSample(t0 + 6_000, "scheduler-service", 1, 100));

        CpuPerJob cpu = CpuPerJob.of(samples, burst, 2);

        assertThat(burst.firstSubmit()).isEqualTo(Fixtures.T0);
        assertThat(burst.lastCompletion()).isEqualTo(Fixtures.at(4_000));
        assertThat(cpu.ms("scheduler-service")).as("25% over 4 s for 2 jobs").isCloseTo(500.0, within(EPS));
        assertThat(Targets.ceiling(cpu)).isEqualTo("; CPU 500 ms a job (bench included), so at most 4 jobs/s"
                + " on these cores");
    }
}
