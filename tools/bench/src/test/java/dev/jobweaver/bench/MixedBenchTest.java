package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The mixed workload's job mix and the judgement of its features. */
class MixedBenchTest {

    @Test
    void oneJobInTenIsKeyedAnotherLabelledAndEveryOneOfTheLimitedTenant() {
        List<Control> controls = IntStream.range(0, 1_000).mapToObj(i -> MixedBench.control(i, "s1")).toList();
        assertThat(controls).allMatch(c -> LimitsBench.TENANT.equals(c.tenant()));
        assertThat(controls.stream().filter(c -> c.idempotencyKey() != null)).hasSize(100);
        assertThat(controls.stream().filter(c -> c.label() != null)).hasSize(100);
        assertThat(controls).noneMatch(c -> c.idempotencyKey() != null && c.label() != null);
        assertThat(controls.stream().map(Control::idempotencyKey).filter(k -> k != null).collect(Collectors.toSet()))
                .hasSize(100);
        // another invocation's keys differ: its repeats must not meet this one's jobs
        assertThat(MixedBench.control(0, "s2").idempotencyKey()).isNotEqualTo(controls.getFirst().idempotencyKey());
        assertThat(controls.get(3).label()).isNull();
        assertThat(controls.get(3).idempotencyKey()).isNull();
    }

    @Test
    void theLabelAndTheTenantAreFieldsOfTheJobsBody() {
        assertThat(MixedBench.control(5, "s").body(JobKind.NOOP)).endsWith(",\"tenant\":\"bench-limited\","
                + "\"labels\":{\"bench-mix\":\"hooked\"}}");
        assertThat(MixedBench.control(0, "s").body(JobKind.NOOP)).endsWith(",\"tenant\":\"bench-limited\"}");
        assertThat(MixedBench.subscriptionBody("http://127.0.0.1:1/hook")).isEqualTo("{\"jobType\":\"SIMULATION\","
                + "\"labels\":{\"bench-mix\":\"hooked\"},\"events\":[\"COMPLETED\"],\"url\":\"http://127.0.0.1:1/hook\"}");
        assertThat(MixedBench.filtered("{\"id\":\"x\",\"jobType\":\"SIMULATION\",\"labels\":{\"bench-mix\":\"hooked\"}}"))
                .isTrue();
        assertThat(MixedBench.filtered("{\"id\":\"x\",\"jobType\":\"SIMULATION\"}")).isFalse();
    }

    @Test
    void theSubmitterSendsTheKeyAsTheIdempotencyKeyHeader() throws Exception {
        List<String> keys = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (StubApi api = StubApi.serving("/api/jobs", (exchange, body) -> {
            keys.add(String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")));
            StubApi.answer(exchange, 202, "{\"jobId\":\"" + UUID.randomUUID() + "\"}");
        }); Progress progress = new Progress("test", 20, new java.io.PrintStream(
                java.io.OutputStream.nullOutputStream()), false)) {
            List<Accepted> accepted = new java.util.concurrent.CopyOnWriteArrayList<>();
            new Submitter(api.client()).burst(20, 1, i -> JobKind.NOOP, i -> MixedBench.control(i, "s"),
                    accepted::add, progress);
            assertThat(keys).containsExactly("bench-mixed-s-0", "null", "null", "null", "null", "null", "null",
                    "null", "null", "null", "bench-mixed-s-10", "null", "null", "null", "null", "null", "null", "null",
                    "null", "null");
            assertThat(accepted).filteredOn(a -> a.control().idempotencyKey() != null).hasSize(2);
        }
    }

    @Test
    void everyFeatureAsExpectedIsCorrect() {
        UUID keyed = UUID.randomUUID();
        UUID labelled = UUID.randomUUID();
        MixedFeatures f = MixedFeatures.of(Map.of(keyed, keyed), Map.of(labelled, true), true, List.of(labelled),
                List.of("COMPLETED", "COMPLETED"), 2, 10);
        assertThat(f.keyedSameJob()).isEqualTo(1);
        assertThat(f.hookedOnce()).isEqualTo(1);
        assertThat(f.runsCompleted()).isEqualTo(2);
        assertThat(f.nodeJobs()).isEqualTo(20);
        assertThat(f.correctness().summary()).isEqualTo("4/4 as expected, 0 lost, 0 duplicated, 0 unexpected");
    }

    @Test
    void aSecondJobAMissingOrRepeatedOrStrayWebhookAndAFailedRunAreEachAProblem() {
        UUID keyed = UUID.randomUUID();
        UUID refused = UUID.randomUUID();
        UUID hookless = UUID.randomUUID();
        UUID twice = UUID.randomUUID();
        UUID unfinished = UUID.randomUUID();
        UUID plain = UUID.randomUUID();
        Map<UUID, UUID> repeats = new HashMap<>();
        repeats.put(keyed, UUID.randomUUID());
        repeats.put(refused, null);
        Map<UUID, Boolean> labelled = new LinkedHashMap<>();
        labelled.put(hookless, true);
        labelled.put(twice, true);
        labelled.put(unfinished, false);
        MixedFeatures f = MixedFeatures.of(repeats, labelled, true, List.of(twice, twice, plain),
                java.util.Arrays.asList("FAILED", null, "RUNNING"), 2, 10);
        assertThat(List.of(f.keyedSecondJob(), f.keyedRefused(), f.hooksMissing(), f.hooksRepeated(),
                f.hooksUnmatched(), f.runsCompleted())).containsExactly(1, 1, 1, 1, 1, 0);
        // the unfinished labelled job owes no webhook: it is not judged
        assertThat(f.correctness().summary()).isEqualTo("0/8 as expected, 3 lost, 2 duplicated, 3 unexpected");
        assertThat(f.correctness().ok()).isFalse();
    }

    @Test
    void withoutTheFilterNoWebhookIsJudged() {
        UUID labelled = UUID.randomUUID();
        MixedFeatures f = MixedFeatures.of(Map.of(), Map.of(labelled, true), false, List.of(), List.of(), 0, 10);
        assertThat(f.labelled()).isEqualTo(1);
        assertThat(f.hooksMissing()).isZero();
        assertThat(f.correctness().accepted()).isZero();
    }
}
