package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class MachineCpuTest {

    /** A /proc/stat text of a two-core machine: user nice system idle iowait irq softirq steal guest guest_nice. */
    static String procStat(long user, long system, long idle, long steal) {
        return "cpu  " + user + " 0 " + system + " " + idle + " 0 0 0 " + steal + " 0 0\n"
                + "cpu0 1 0 1 1 0 0 0 0 0 0\ncpu1 1 0 1 1 0 0 0 0 0 0\nintr 12345\nctxt 6789\n";
    }

    @Test
    void readsBusyStolenAndAllTicksOfTheAggregateLine() {
        MachineCpu cpu = MachineCpu.parse(7, "cpu  100 5 40 800 20 3 2 30 11 0\ncpu0 50 2 20 400 10 1 1 15 5 0\n");
        assertThat(cpu.epochMs()).isEqualTo(7);
        assertThat(cpu.busyTicks()).as("user + nice + system + irq + softirq").isEqualTo(150);
        assertThat(cpu.stealTicks()).isEqualTo(30);
        assertThat(cpu.totalTicks()).as("busy + idle + iowait + steal; guest is inside user").isEqualTo(1_000);
    }

    @Test
    void anOldKernelsLineWithoutStealReadsAsNoneStolen() {
        MachineCpu cpu = MachineCpu.parse(0, "cpu 10 0 5 85\n");
        assertThat(cpu.stealTicks()).isZero();
        assertThat(cpu.totalTicks()).isEqualTo(100);
    }

    @Test
    void aTextWithoutTheAggregateLineIsRefusedNamingWhatIsMissing() {
        assertThatThrownBy(() -> MachineCpu.parse(0, "cpu0 1 2 3 4\nintr 5\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no aggregate cpu line");
        assertThatThrownBy(() -> MachineCpu.parse(0, "cpu 1 2 3\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fewer than four figures");
    }

    @Test
    void theLoadOfAWindowIsBetweenItsFirstAndLastReadings() {
        List<MachineCpu> readings = List.of(
                new MachineCpu(1_000, 0, 0, 0),
                new MachineCpu(2_000, 100, 10, 200),
                new MachineCpu(3_000, 250, 30, 400),
                new MachineCpu(4_000, 400, 90, 600));
        MachineCpu.Load load = MachineCpu.Load.of(readings, 2_000, 3_500);
        assertThat(load.known()).isTrue();
        assertThat(load.busyPercent()).isCloseTo(75.0, within(1e-9));
        assertThat(load.stolenPercent()).isCloseTo(10.0, within(1e-9));
        assertThat(MachineCpu.Load.of(readings, 0, 5_000).stolenPercent()).isCloseTo(15.0, within(1e-9));
    }

    @Test
    void aWindowWithFewerThanTwoReadingsHasNoFigure() {
        List<MachineCpu> readings = List.of(new MachineCpu(1_000, 0, 0, 0), new MachineCpu(2_000, 100, 10, 200));
        assertThat(MachineCpu.Load.of(readings, 1_500, 2_500).known()).isFalse();
        assertThat(MachineCpu.Load.of(List.of(), 0, 10).known()).isFalse();
        assertThat(MachineCpu.Load.of(List.of(new MachineCpu(1, 5, 0, 10), new MachineCpu(2, 5, 0, 10)), 0, 10)
                .known()).as("no time passed").isFalse();
    }
}
