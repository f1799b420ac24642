package dev.jobweaver.api.job.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.job.StepRules;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Unit tests of the bounds: each rule, its edges, and that every violation names its field. */
class JobRequestValidatorTest {

    private final JobRequestValidator validator = new JobRequestValidator(StepRules.Limits.DEFAULTS);

    private static JobRequest job(Step... steps) {
        return new JobRequest(JobType.SIMULATION, new JobPayload(List.of(steps)), 3);
    }

    static Stream<Arguments> validJobs() {
        return Stream.of(
                Arguments.of(job(new Step.Log("hi"))),
                Arguments.of(job(new Step.Sleep(0L), new Step.Sleep(60_000L))),
                Arguments.of(job(new Step.Compute(0L), new Step.Compute(100_000_000L))),
                Arguments.of(job(new Step.HttpCall("https://example.com/x?y=1", 60_000L))),
                Arguments.of(job(new Step.Fail("m".repeat(4096)))),
                Arguments.of(job(new Step.Fail("flaky", 1), new Step.Fail("flaky", 11))),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(List.of(new Step.Log("x"))), 0)),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(List.of(new Step.Log("x"))), 10)),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(List.of(new Step.Log("x"))), null)),
                Arguments.of(new JobRequest(JobType.SIMULATION,
                        new JobPayload(Collections.nCopies(100, new Step.Log("x"))), 1)));
    }

    @ParameterizedTest
    @MethodSource("validJobs")
    void validJobsPass(JobRequest request) {
        assertThat(validator.violations(request)).isEmpty();
    }

    static Stream<Arguments> invalidJobs() {
        return Stream.of(
                Arguments.of(new JobRequest(null, new JobPayload(List.of(new Step.Log("x"))), 1), "jobType is required"),
                Arguments.of(new JobRequest(JobType.SIMULATION, null, 1), "payload is required"),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(null), 1), "payload.steps is required"),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(List.of()), 1),
                        "payload.steps must hold at least one step"),
                Arguments.of(new JobRequest(JobType.SIMULATION,
                        new JobPayload(Collections.nCopies(101, new Step.Log("x"))), 1),
                        "payload.steps must hold at most 100 steps, got 101"),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(Collections.singletonList(null)), 1),
                        "payload.steps[0] must be a step object"),
                Arguments.of(job(new Step.Sleep(null)), "payload.steps[0].durationMs is required"),
                Arguments.of(job(new Step.Sleep(-1L)), "payload.steps[0].durationMs must be between 0 and 60000"),
                Arguments.of(job(new Step.Log("a"), new Step.Sleep(60_001L)),
                        "payload.steps[1].durationMs must be between 0 and 60000, got 60001"),
                Arguments.of(job(new Step.Compute(null)), "payload.steps[0].iterations is required"),
                Arguments.of(job(new Step.Compute(-1L)), "payload.steps[0].iterations must be between 0 and 100000000"),
                Arguments.of(job(new Step.Compute(100_000_001L)),
                        "payload.steps[0].iterations must be between 0 and 100000000"),
                Arguments.of(job(new Step.HttpCall("http://x.example", null)), "payload.steps[0].latencyMs is required"),
                Arguments.of(job(new Step.HttpCall("http://x.example", 60_001L)),
                        "payload.steps[0].latencyMs must be between 0 and 60000"),
                Arguments.of(job(new Step.HttpCall(null, 1L)), "payload.steps[0].url is required"),
                Arguments.of(job(new Step.HttpCall("not a url", 1L)), "payload.steps[0].url must be an absolute"),
                Arguments.of(job(new Step.HttpCall("file:///etc/passwd", 1L)), "payload.steps[0].url must be an absolute"),
                Arguments.of(job(new Step.HttpCall("http://x.example/" + "p".repeat(2048), 1L)),
                        "payload.steps[0].url must be at most 2048 characters"),
                Arguments.of(job(new Step.Log(null)), "payload.steps[0].message is required"),
                Arguments.of(job(new Step.Log("  ")), "payload.steps[0].message is required"),
                Arguments.of(job(new Step.Fail(null)), "payload.steps[0].message is required"),
                Arguments.of(job(new Step.Fail("flaky", 0)), "payload.steps[0].times must be between 1 and 11"),
                Arguments.of(job(new Step.Log("a"), new Step.Fail("flaky", 12)),
                        "payload.steps[1].times must be between 1 and 11 (attempts that fail), got 12"),
                Arguments.of(job(new Step.Log("before\u0000after")),
                        "payload.steps[0].message must not contain the NUL character (U+0000)"),
                Arguments.of(job(new Step.Fail("x\u0000")), "payload.steps[0].message must not contain the NUL"),
                Arguments.of(job(new Step.Log("m".repeat(4097))),
                        "payload.steps[0].message must be at most 4096 characters, got 4097"),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(List.of(new Step.Log("x"))), -1),
                        "maxRetryCount must be between 0 and 10, got -1"),
                Arguments.of(new JobRequest(JobType.SIMULATION, new JobPayload(List.of(new Step.Log("x"))), 11),
                        "maxRetryCount must be between 0 and 10, got 11"));
    }

    @ParameterizedTest
    @MethodSource("invalidJobs")
    void invalidJobsNameTheField(JobRequest request, String expected) {
        assertThat(validator.violations(request)).anySatisfy(v -> assertThat(v).contains(expected));
    }

    @Test
    void boundsComeFromTheLimits() {
        JobRequestValidator strict = new JobRequestValidator(new StepRules.Limits(2, 10, 10, 10, 5, 50, 10));

        assertThat(strict.violations(job(new Step.Sleep(11L)))).containsExactly(
                "payload.steps[0].durationMs must be between 0 and 10, got 11");
        assertThat(strict.violations(job(new Step.Log("x"), new Step.Log("y"), new Step.Log("z"))))
                .containsExactly("payload.steps must hold at most 2 steps, got 3");
        assertThat(strict.violations(job(new Step.Log("123456")))).hasSize(1);
        assertThat(validator.violations(job(new Step.Log("123456")))).isEmpty();
    }

    @Test
    void everyViolationIsReportedUpToTheCap() {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            steps.add(new Step.Sleep(-1L));
        }
        List<String> violations = validator.violations(
                new JobRequest(null, new JobPayload(steps), 99));

        assertThat(violations).hasSize(JobRequestValidator.MAX_REPORTED);
        assertThat(violations.get(0)).startsWith("jobType");
        assertThat(violations.get(1)).startsWith("maxRetryCount");
        assertThat(violations.get(2)).startsWith("payload.steps[0].durationMs");
    }
}
