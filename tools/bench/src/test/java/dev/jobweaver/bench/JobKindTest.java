package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class JobKindTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fivePercentSleepersAreSpreadEvenly() {
        long sleepers = IntStream.range(0, 20_000).filter(i -> JobKind.mix(i, 0.05, JobKind.SLEEPER) == JobKind.SLEEPER)
                .count();
        assertThat(sleepers).isEqualTo(1_000);
        assertThat(IntStream.range(0, 40).filter(i -> JobKind.mix(i, 0.05, JobKind.SLEEPER) == JobKind.SLEEPER))
                .containsExactly(19, 39);
    }

    @Test
    void tenPercentFlaky() {
        assertThat(IntStream.range(0, 1_000).filter(i -> JobKind.mix(i, 0.10, JobKind.FLAKY) == JobKind.FLAKY).count())
                .isEqualTo(100);
    }

    @Test
    void noFractionMeansOnlyNoOps() {
        assertThat(IntStream.range(0, 100).mapToObj(i -> JobKind.mix(i, 0, JobKind.FLAKY)))
                .containsOnly(JobKind.NOOP);
    }

    @Test
    void bodiesAreTheSpecsRequests() throws Exception {
        JsonNode noop = JSON.readTree(JobKind.NOOP.body());
        assertThat(noop.path("jobType").asText()).isEqualTo("SIMULATION");
        assertThat(noop.at("/payload/steps/0/action").asText()).isEqualTo("LOG");
        JsonNode sleeper = JSON.readTree(JobKind.SLEEPER.body());
        assertThat(sleeper.at("/payload/steps/0/action").asText()).isEqualTo("SLEEP");
        assertThat(sleeper.at("/payload/steps/0/durationMs").asLong()).isEqualTo(5_000);
        JsonNode flaky = JSON.readTree(JobKind.FLAKY.body());
        assertThat(flaky.at("/payload/steps/0/action").asText()).isEqualTo("FAIL");
        assertThat(flaky.at("/payload/steps/0/times").asInt()).isEqualTo(1);
        assertThat(flaky.path("maxRetryCount").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(JobKind.FLAKY.expectedAttempts()).isEqualTo(2);
        assertThat(JobKind.NOOP.expectedAttempts()).isEqualTo(1);
    }

    @Test
    void theCancelledRunSleepsThirtySecondsWithoutARetry() throws Exception {
        JsonNode run = JSON.readTree(JobKind.LONG_SLEEPER.body());
        assertThat(run.at("/payload/steps/0/action").asText()).isEqualTo("SLEEP");
        assertThat(run.at("/payload/steps/0/durationMs").asLong()).isEqualTo(30_000);
        assertThat(run.path("maxRetryCount").isInt()).isTrue();
        assertThat(run.path("maxRetryCount").asInt()).isZero();
    }

    @Test
    void theRetriesProbeAllowsOneRetryOnly() throws Exception {
        JsonNode probe = JSON.readTree(WorkloadRunner.PROBE);
        assertThat(probe.path("maxRetryCount").asInt()).isEqualTo(1);
        assertThat(probe.at("/payload/steps/0/times").asInt()).isEqualTo(1);
    }
}
