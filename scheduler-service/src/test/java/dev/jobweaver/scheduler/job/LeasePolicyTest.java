package dev.jobweaver.scheduler.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.Step;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeasePolicyTest {

    private final LeasePolicy policy = new LeasePolicy(Duration.ofSeconds(60), Duration.ofMillis(50),
            Duration.ofMinutes(10));

    @Test
    void sumsSleepsAndCallsAndEstimatesComputeThenAddsTheGrace() {
        JobPayload payload = new JobPayload(List.of(
                new Step.Sleep(2_000L),
                new Step.Log("x"),
                new Step.HttpCall("http://example.test", 1_500L),
                new Step.Compute(100_000_000L),
                new Step.Sleep(500L),
                new Step.Fail("no")));
        // 2 000 + 1 500 + 500 ms, and 100 M iterations at 50 ms per million: 5 000 ms.
        assertThat(policy.longestRun(payload)).isEqualTo(Duration.ofMillis(9_000));
        assertThat(policy.leaseFor(payload)).isEqualTo(Duration.ofMillis(69_000));
    }

    @Test
    void roundsComputeEstimatesUp() {
        JobPayload payload = new JobPayload(List.of(new Step.Compute(1L)));
        assertThat(policy.longestRun(payload)).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aJobOfQuickStepsGetsTheGraceOnly() {
        JobPayload payload = new JobPayload(List.of(new Step.Log("a"), new Step.Fail("b")));
        assertThat(policy.leaseFor(payload)).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theLongestAcceptedJobIsCoveredAndMissingNumbersCountAsZero() {
        List<Step> steps = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            steps.add(new Step.Sleep(60_000L));
        }
        steps.add(new Step.Sleep(null));
        steps.add(new Step.Compute(-5L));
        assertThat(policy.longestRun(new JobPayload(steps))).isEqualTo(Duration.ofMinutes(100));
    }

    @Test
    void absurdNumbersAreBoundedInsteadOfOverflowing() {
        JobPayload payload = new JobPayload(List.of(new Step.Sleep(Long.MAX_VALUE), new Step.Sleep(Long.MAX_VALUE),
                new Step.Compute(Long.MAX_VALUE)));
        assertThat(policy.longestRun(payload)).isEqualTo(Duration.ofDays(365));
    }

    @Test
    void aJobsTimeoutIsItsLongestRunWhateverItsSteps() {
        JobPayload payload = new JobPayload(List.of(new Step.Sleep(50_000L)));
        JobControl control = new JobControl(null, null, 1_500L, null, null, null);
        assertThat(policy.leaseFor(JobType.SIMULATION, Payloads.tree(payload), control))
                .isEqualTo(Duration.ofMillis(61_500));
    }

    @Test
    void aSimulationWithoutTimeoutKeepsTheEstimateOfItsSteps() {
        JobPayload payload = new JobPayload(List.of(new Step.Sleep(2_000L), new Step.Compute(10_000_000L)));
        assertThat(policy.leaseFor(JobType.SIMULATION, Payloads.tree(payload), null))
                .isEqualTo(Duration.ofMillis(62_500));
        assertThat(policy.leaseFor(JobType.SIMULATION, Payloads.tree(payload), JobControl.DEFAULTS))
                .isEqualTo(Duration.ofMillis(62_500));
    }

    @Test
    void anHttpJobHasNoStepsItsRequestTimeoutOrTheConfiguredDefaultIsItsLongestRun() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        assertThat(policy.leaseFor(JobType.HTTP,
                mapper.readTree("{\"method\":\"GET\",\"url\":\"https://example.test\",\"timeoutMs\":3000}"), null))
                .isEqualTo(Duration.ofMillis(63_000));
        assertThat(policy.leaseFor(JobType.HTTP,
                mapper.readTree("{\"method\":\"GET\",\"url\":\"https://example.test\"}"), null))
                .isEqualTo(Duration.ofMinutes(11));
        assertThat(policy.leaseFor(JobType.HTTP, mapper.readTree("{\"method\":\"GET\",\"url\":\"https://example.test\"}"),
                new JobControl(null, null, 20_000L, null, null, null))).isEqualTo(Duration.ofSeconds(80));
    }

    @Test
    void aTypeOfATeamsOwnRunsForItsTimeoutOrTheConfiguredDefault() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JobType resize = JobType.of("image.resize");
        assertThat(policy.leaseFor(resize, mapper.readTree("{\"steps\":[{\"action\":\"SLEEP\",\"durationMs\":1}]}"),
                null)).as("its payload is its handler's: no steps are read").isEqualTo(Duration.ofMinutes(11));
        assertThat(policy.leaseFor(resize, mapper.readTree("{}"), new JobControl(null, null, 5_000L, null, null, null)))
                .isEqualTo(Duration.ofSeconds(65));
    }
}
