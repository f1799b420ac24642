package dev.jobweaver.api.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.job.StepRules;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Unit tests of the bounds: each rule, its edges, and that every violation names its field. */
class JobRequestViolationsTest {

    /** The acceptance instant of every request here. */
    static final Instant NOW = Instant.parse("2030-01-31T09:00:00Z");

    private final JobBodies validator = bodies(StepRules.Limits.DEFAULTS);

    /** The job bodies of a service configured with {@code limits}. */
    private static JobBodies bodies(StepRules.Limits limits) {
        return new JobBodies(new ObjectMapper(), limits, 3);
    }

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
        assertThat(validator.violations(request, NOW)).isEmpty();
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
        assertThat(validator.violations(request, NOW)).anySatisfy(v -> assertThat(v).contains(expected));
    }

    @Test
    void boundsComeFromTheLimits() {
        JobBodies strict = bodies(new StepRules.Limits(2, 10, 10, 10, 5, 50, 10));

        assertThat(strict.violations(job(new Step.Sleep(11L)), NOW)).containsExactly(
                "payload.steps[0].durationMs must be between 0 and 10, got 11");
        assertThat(strict.violations(job(new Step.Log("x"), new Step.Log("y"), new Step.Log("z")), NOW))
                .containsExactly("payload.steps must hold at most 2 steps, got 3");
        assertThat(strict.violations(job(new Step.Log("123456")), NOW)).hasSize(1);
        assertThat(validator.violations(job(new Step.Log("123456")), NOW)).isEmpty();
    }

    @Test
    void everyViolationIsReportedUpToTheCap() {
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            steps.add(new Step.Sleep(-1L));
        }
        List<String> violations = validator.violations(
                new JobRequest(null, new JobPayload(steps), 99), NOW);

        assertThat(violations).hasSize(JobRequest.MAX_REPORTED);
        assertThat(violations.get(0)).startsWith("jobType");
        assertThat(violations.get(1)).startsWith("maxRetryCount");
        assertThat(violations.get(2)).startsWith("payload.steps[0].durationMs");
    }

    private static final JsonNode LOG = Payloads.tree(new JobPayload(List.of(new Step.Log("x"))));

    /** A valid SIMULATION job with the given job control. */
    private static JobRequest controlled(Priority priority, String runAt, Long delayMs, Long timeoutMs,
                                         List<Long> retryDelaysMs, String tenant, Map<String, String> labels) {
        return new JobRequest(JobType.SIMULATION, LOG, 1, priority, runAt, delayMs, timeoutMs, retryDelaysMs, tenant,
                labels, null);
    }

    @Test
    void aQueueIsANameLikeATenants() {
        JobRequest images = new JobRequest(JobType.SIMULATION, LOG, 1, null, null, null, null, null, null, null,
                "images-eu-1");
        JobRequest upper = new JobRequest(JobType.SIMULATION, LOG, 1, null, null, null, null, null, null, null,
                "Images");

        assertThat(validator.violations(images, NOW)).isEmpty();
        assertThat(images.control(NOW).queue()).isEqualTo("images-eu-1");
        assertThat(validator.violations(upper, NOW)).containsExactly(
                "queue must match [a-z0-9][a-z0-9-]{0,62}, got 'Images'");
    }

    private static Map<String, String> labels(int count) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            labels.put("k" + i, "v");
        }
        return labels;
    }

    static Stream<Arguments> validControls() {
        return Stream.of(
                Arguments.of(controlled(Priority.HIGH, null, null, null, null, null, null)),
                Arguments.of(controlled(Priority.LOW, "2030-01-31T09:00:00Z", null, null, null, null, null)),
                Arguments.of(controlled(null, "2000-01-01T00:00:00Z", null, null, null, null, null)),
                Arguments.of(controlled(null, "2030-01-31T10:00:00+01:00", null, null, null, null, null)),
                // ISO 8601 leaves the seconds out when they are 0
                Arguments.of(controlled(null, "2030-01-31T10:00+01:00", null, null, null, null, null)),
                Arguments.of(controlled(null, "2030-01-31T09:00Z", null, null, null, null, null)),
                Arguments.of(controlled(null, NOW.plusMillis(JobControlRules.MAX_DELAY_MS).toString(), null, null, null,
                        null, null)),
                Arguments.of(controlled(null, null, 0L, null, null, null, null)),
                Arguments.of(controlled(null, null, JobControlRules.MAX_DELAY_MS, null, null, null, null)),
                Arguments.of(controlled(null, null, null, 1L, null, null, null)),
                Arguments.of(controlled(null, null, null, JobControlRules.MAX_TIMEOUT_MS, null, null, null)),
                Arguments.of(controlled(null, null, null, null, List.of(0L), null, null)),
                Arguments.of(controlled(null, null, null, null, Collections.nCopies(10, JobControlRules.MAX_DELAY_MS),
                        null, null)),
                Arguments.of(controlled(null, null, null, null, null, "a", null)),
                Arguments.of(controlled(null, null, null, null, null, "acme-1" + "x".repeat(57), null)),
                Arguments.of(controlled(null, null, null, null, null, null, Map.of())),
                Arguments.of(controlled(null, null, null, null, null, null, labels(16))),
                Arguments.of(controlled(null, null, null, null, null, null,
                        Map.of("app.kubernetes.io/name", "v".repeat(255)))));
    }

    @ParameterizedTest
    @MethodSource("validControls")
    void validControlsPass(JobRequest request) {
        assertThat(validator.violations(request, NOW)).isEmpty();
    }

    static Stream<Arguments> invalidControls() {
        return Stream.of(
                Arguments.of(controlled(null, "2030-02-01T00:00:00Z", 5L, null, null, null, null),
                        "runAt and delayMs must not both be given"),
                Arguments.of(controlled(null, "tomorrow", null, null, null, null, null),
                        "runAt must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got 'tomorrow'"),
                Arguments.of(controlled(null, "2030-01-31", null, null, null, null, null), "runAt must be an ISO-8601"),
                Arguments.of(controlled(null, NOW.plusMillis(JobControlRules.MAX_DELAY_MS + 1).toString(), null, null,
                        null, null, null), "runAt must be at most 365 days after now"),
                Arguments.of(controlled(null, "+999999999-12-31T23:59:59Z", null, null, null, null, null),
                        "runAt must be at most 365 days after now"),
                Arguments.of(controlled(null, null, -1L, null, null, null, null),
                        "delayMs must be between 0 and 31536000000 (365 days), got -1"),
                Arguments.of(controlled(null, null, JobControlRules.MAX_DELAY_MS + 1, null, null, null, null),
                        "delayMs must be between 0 and 31536000000"),
                Arguments.of(controlled(null, null, null, 0L, null, null, null),
                        "timeoutMs must be between 1 and 86400000, got 0"),
                Arguments.of(controlled(null, null, null, JobControlRules.MAX_TIMEOUT_MS + 1, null, null, null),
                        "timeoutMs must be between 1 and 86400000"),
                Arguments.of(controlled(null, null, null, null, List.of(), null, null),
                        "retryDelaysMs must hold 1 to 10 entries, got 0"),
                Arguments.of(controlled(null, null, null, null, Collections.nCopies(11, 1L), null, null),
                        "retryDelaysMs must hold 1 to 10 entries, got 11"),
                Arguments.of(controlled(null, null, null, null, List.of(1L, -1L), null, null),
                        "retryDelaysMs[1] must be between 0 and 31536000000, got -1"),
                Arguments.of(controlled(null, null, null, null, Arrays.asList(1L, null), null, null),
                        "retryDelaysMs[1] must be between 0"),
                Arguments.of(controlled(null, null, null, null, List.of(JobControlRules.MAX_DELAY_MS + 1), null, null),
                        "retryDelaysMs[0] must be between 0 and 31536000000"),
                Arguments.of(controlled(null, null, null, null, null, "", null), "tenant must match"),
                Arguments.of(controlled(null, null, null, null, null, "Acme", null), "tenant must match"),
                Arguments.of(controlled(null, null, null, null, null, "-acme", null), "tenant must match"),
                Arguments.of(controlled(null, null, null, null, null, "a".repeat(64), null), "tenant must match"),
                Arguments.of(controlled(null, null, null, null, null, null, labels(17)),
                        "labels must hold at most 16 pairs, got 17"),
                Arguments.of(controlled(null, null, null, null, null, null, Map.of("", "v")),
                        "labels has an invalid key ''"),
                Arguments.of(controlled(null, null, null, null, null, null, Map.of("-x", "v")),
                        "labels has an invalid key '-x'"),
                Arguments.of(controlled(null, null, null, null, null, null, Map.of("k".repeat(64), "v")),
                        "labels has an invalid key"),
                Arguments.of(controlled(null, null, null, null, null, null, Map.of("team", "v".repeat(256))),
                        "labels.team must be a string of at most 255 characters"),
                Arguments.of(controlled(null, null, null, null, null, null, Collections.singletonMap("team", null)),
                        "labels.team must be a string"),
                Arguments.of(controlled(null, null, null, null, null, null, Map.of("team", "a\u0000b")),
                        "labels.team must be a string"));
    }

    @ParameterizedTest
    @MethodSource("invalidControls")
    void invalidControlsNameTheField(JobRequest request, String expected) {
        assertThat(validator.violations(request, NOW)).anySatisfy(v -> assertThat(v).contains(expected));
    }

    static Stream<Arguments> httpJobs() {
        return Stream.of(
                Arguments.of("{\"method\":\"POST\",\"url\":\"https://a.example/x\",\"headers\":{\"X-A\":\"1\"},"
                        + "\"body\":\"{}\",\"expectedStatus\":[200,201],\"timeoutMs\":10000}", null),
                Arguments.of("{\"method\":\"get\",\"url\":\"http://a.example\"}", null),
                Arguments.of("{\"url\":\"https://a.example\"}", "payload.method is required"),
                Arguments.of("{\"method\":\"FETCH\",\"url\":\"https://a.example\"}", "payload.method must be one of"),
                Arguments.of("{\"method\":\"GET\"}", "payload.url is required"),
                Arguments.of("{\"method\":\"GET\",\"url\":\"ftp://a.example\"}", "payload.url must be an absolute"),
                Arguments.of("{\"method\":\"GET\",\"url\":\"https://a.example\",\"headers\":{\"a b\":\"1\"}}",
                        "payload.headers has an invalid header name 'a b'"),
                Arguments.of("{\"method\":\"GET\",\"url\":\"https://a.example\",\"expectedStatus\":[99]}",
                        "payload.expectedStatus entries must be between 100 and 599, got 99"),
                Arguments.of("{\"method\":\"GET\",\"url\":\"https://a.example\",\"timeoutMs\":0}",
                        "payload.timeoutMs must be between 1 and 3600000"));
    }

    @ParameterizedTest
    @MethodSource("httpJobs")
    void httpPayloadsAreCheckedByTheirOwnRules(String payload, String expected) throws Exception {
        JobRequest request = new JobRequest(JobType.HTTP, new ObjectMapper().readTree(payload), 1, null, null, null,
                null, null, null, null, null);

        List<String> violations = validator.violations(request, NOW);

        if (expected == null) {
            assertThat(violations).isEmpty();
        } else {
            assertThat(violations).anySatisfy(v -> assertThat(v).contains(expected));
        }
    }

    @Test
    void anHttpJobWithoutPayloadIsToldWhatItNeeds() {
        JobRequest request = new JobRequest(JobType.HTTP, null, 1, null, null, null, null, null, null, null, null);

        assertThat(validator.violations(request, NOW)).containsExactly(
                "payload is required and must hold at least method and url");
    }

    @Test
    void aSimulationPayloadOfAnHttpJobIsRefused() {
        JobRequest request = new JobRequest(JobType.HTTP, LOG, 1, null, null, null, null, null, null, null, null);

        assertThat(validator.violations(request, NOW)).anySatisfy(v -> assertThat(v).startsWith(
                "payload is not an HTTP payload"));
    }
}
