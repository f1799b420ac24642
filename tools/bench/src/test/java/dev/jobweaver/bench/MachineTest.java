package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MachineTest {

    @Test
    void theChainVisitsEveryIndexOnceBeforeItCloses() {
        int[] next = Machine.singleCycle(1_000);
        Set<Integer> seen = new HashSet<>();
        int at = 0;
        do {
            assertThat(seen.add(at)).as("index %d visited twice", at).isTrue();
            at = next[at];
        } while (at != 0);
        assertThat(seen).hasSize(1_000);
    }

    @Test
    void readsBeyondTheCachesTakeLongerThanReadsWithinThem() {
        // 16 KiB stays in the first-level cache; 64 MiB is beyond any core's caches: a factor of ten at least on
        // every machine, far above the noise of a shared one
        double cached = Machine.memoryLatencyNs(16 << 10, 2_000_000);
        double memory = Machine.memoryLatencyNs(64 << 20, 1_000_000);
        assertThat(cached).isPositive();
        assertThat(memory).isGreaterThan(3 * cached);
    }

    @Test
    void theModelNameComesFromCpuinfo() {
        String cpuinfo = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\ncpu MHz\t\t: 2445\n"
                + "processor\t: 1\nmodel name\t: AMD EPYC 7B13\n";
        assertThat(Machine.modelName(cpuinfo)).isEqualTo("AMD EPYC 7B13");
        assertThat(Machine.modelName("processor\t: 0\nfeatures\t: fp asimd\n")).isEqualTo("unknown");
        assertThat(Machine.modelName("model name\t:\n")).isEqualTo("unknown");
    }

    @Test
    void describesItselfInOneLine() {
        assertThat(new Machine("AMD EPYC", 2, 153.4).describe())
                .isEqualTo("AMD EPYC, 2 CPUs; memory latency 153 ns (dependent random reads over 32 MiB, measured"
                        + " before the run)");
    }
}
