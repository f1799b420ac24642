package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcStatsTest {

    static final String STATUS = """
            Name:\tjava
            Umask:\t0022
            State:\tS (sleeping)
            VmPeak:\t 3921424 kB
            VmRSS:\t  187392 kB
            RssShmem:\t   24580 kB
            RssAnon:\t  160000 kB
            Threads:\t42
            """;

    static String stat(String comm, long utime, long stime) {
        return "4242 (" + comm + ") S 1 4242 4242 0 -1 4194560 25000 0 3 0 " + utime + " " + stime
                + " 0 0 20 0 42 0 1234567 4015804416 46848 18446744073709551615 1 1 0 0 0 0 0 2 16800975 0 0 0 17 1"
                + " 0 0 0 0 0\n";
    }

    @Test
    void readsVmRss() {
        assertThat(ProcStats.rssKb(STATUS)).isEqualTo(187_392);
        assertThat(ProcStats.rssKb("Name:\tkworker\nState:\tI (idle)\n")).isEqualTo(-1);
        assertThat(ProcStats.rssShmemKb(STATUS)).isEqualTo(24_580);
        assertThat(ProcStats.rssShmemKb("VmRSS:\t1 kB\n")).isZero();
        assertThat(ProcStats.rssFileKb("RssFile:\t  8123 kB\n")).isEqualTo(8_123);
    }

    @Test
    void sumsUtimeAndStime() {
        assertThat(ProcStats.cpuTicks(stat("java", 1500, 250))).isEqualTo(1750);
    }

    @Test
    void aCommandNameWithSpacesAndParenthesesDoesNotShiftTheFields() {
        assertThat(ProcStats.cpuTicks(stat("my (odd) java", 7, 3))).isEqualTo(10);
        assertThatThrownBy(() -> ProcStats.cpuTicks("garbage")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cpuPercentIsOfOneCore() {
        // 150 ticks = 1.5 s of CPU in 1 s of wall time: one and a half cores
        assertThat(ProcStats.cpuPercent(1000, 1150, 1_000_000_000L)).isEqualTo(150.0);
        assertThat(ProcStats.cpuPercent(0, 50, 2_000_000_000L)).isEqualTo(25.0);
        assertThat(ProcStats.cpuPercent(0, 50, 0)).isNaN();
    }

    @Test
    void tellsTheJvmsCompilerAndCollectorThreadsFromTheOthers() {
        assertThat(ProcStats.runtimeThread("C1 CompilerThre\n")).isEqualTo(ProcStats.RuntimeThread.JIT);
        assertThat(ProcStats.runtimeThread("C2 CompilerThre")).isEqualTo(ProcStats.RuntimeThread.JIT);
        assertThat(ProcStats.runtimeThread("VM Thread\n")).isEqualTo(ProcStats.RuntimeThread.GC);
        assertThat(ProcStats.runtimeThread("GC Thread#0")).isEqualTo(ProcStats.RuntimeThread.GC);
        assertThat(ProcStats.runtimeThread("G1 Conc#0")).isEqualTo(ProcStats.RuntimeThread.GC);
        assertThat(ProcStats.runtimeThread("vert.x-eventloo")).isEqualTo(ProcStats.RuntimeThread.OTHER);
        assertThat(ProcStats.runtimeThread("VM Periodic Tas")).isEqualTo(ProcStats.RuntimeThread.OTHER);
        assertThat(ProcStats.runtimeThread("postgres")).isEqualTo(ProcStats.RuntimeThread.OTHER);
    }
}
