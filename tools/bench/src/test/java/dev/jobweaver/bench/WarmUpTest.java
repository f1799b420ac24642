package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    /** A platform whose JVMs' JIT CPU grows by the next of {@code perRound} (per JVM) with every round run. */
    private static final class FakePlatform {
        private final List<Map<String, Double>> perRound;
        private final Map<String, Double> cumulative = new HashMap<>();
        private final List<Integer> rounds = new ArrayList<>();

        FakePlatform(List<Map<String, Double>> perRound) {
            this.perRound = perRound;
            perRound.getFirst().keySet().forEach(jvm -> cumulative.put(jvm, 3.0)); // what their start-up compiled
        }

        void run(int jobs) {
            Map<String, Double> used = perRound.get(Math.min(rounds.size(), perRound.size() - 1));
            used.forEach((jvm, seconds) -> cumulative.merge(jvm, seconds, Double::sum));
            rounds.add(jobs);
        }

        Map<String, Double> jit() {
            return Map.copyOf(cumulative);
        }
    }

    private static Map<String, Double> jit(double api, double worker) {
        return Map.of("api-service", api, "worker-service", worker);
    }

    @Test
    void roundsGoOnUntilNoJvmCompilesMuchInARound() {
        // binary fractions, so that the sums are exact
        FakePlatform platform = new FakePlatform(List.of(jit(1.0, 0.75), jit(0.25, 0.5), jit(0.0625, 0.125),
                jit(0.0625, 0.03125), jit(1.0, 1.0)));
        WarmUp warmUp = WarmUp.adaptive(platform::run, platform::jit);
        assertThat(platform.rounds).containsExactly(2_000, 2_000, 2_000, 2_000);
        assertThat(warmUp.roundJitSeconds()).containsExactly(1.0, 0.5, 0.125, 0.0625);
        assertThat(warmUp.settled()).isTrue();
        assertThat(warmUp.totalJobs()).isEqualTo(8_000);
        assertThat(warmUp.describe()).isEqualTo("8,000 no-op jobs in 4 rounds of 2,000, until no platform JVM used"
                + " 0.1 s of JIT CPU in a round (largest per round: 1.00, 0.50, 0.13, 0.06 s)");
    }

    @Test
    void aWarmPlatformNeedsOneRound() {
        FakePlatform platform = new FakePlatform(List.of(jit(0.02, 0.01)));
        WarmUp warmUp = WarmUp.adaptive(platform::run, platform::jit);
        assertThat(platform.rounds).hasSize(1);
        assertThat(warmUp.settled()).isTrue();
        assertThat(warmUp.describe()).startsWith("2,000 no-op jobs in 1 round of 2,000, until");
    }

    @Test
    void aPlatformThatNeverSettlesStopsAfterTheLastRoundAndSaysSo() {
        FakePlatform platform = new FakePlatform(List.of(jit(0.5, 0.5)));
        WarmUp warmUp = WarmUp.adaptive(platform::run, platform::jit);
        assertThat(platform.rounds).hasSize(WarmUp.MAX_ROUNDS);
        assertThat(warmUp.settled()).isFalse();
        assertThat(warmUp.describe()).contains("the JIT had not settled after 10 rounds");
    }

    @Test
    void withoutJitFiguresOneRoundRuns() {
        List<Integer> rounds = new ArrayList<>();
        WarmUp warmUp = WarmUp.adaptive(rounds::add, Map::of);
        assertThat(rounds).containsExactly(2_000);
        assertThat(warmUp.settled()).isFalse();
        assertThat(warmUp.describe()).contains("one round: JIT CPU not readable here");
    }

    @Test
    void aFixedWarmUpRunsExactlyItsJobsOnce() {
        FakePlatform platform = new FakePlatform(List.of(jit(1.0, 0.8)));
        WarmUp warmUp = WarmUp.fixed(5_000, platform::run, platform::jit);
        assertThat(platform.rounds).containsExactly(5_000);
        assertThat(warmUp.roundJitSeconds()).containsExactly(1.0);
        assertThat(warmUp.describe()).isEqualTo("5,000 no-op jobs; largest JIT CPU of a platform JVM in it: 1.00 s");
    }

    @Test
    void noWarmUpRunsNothing() {
        List<Integer> rounds = new ArrayList<>();
        WarmUp warmUp = WarmUp.fixed(0, rounds::add, Map::of);
        assertThat(rounds).isEmpty();
        assertThat(warmUp.totalJobs()).isZero();
        assertThat(warmUp.describe()).startsWith("none");
    }
}
