package dev.jobweaver.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

    private static final Path CWD = Path.of("/repo");

    @Test
    void defaultsRunEveryWorkloadWithTheIssueSizes() {
        BenchOptions o = BenchOptions.parse(List.of(), CWD);
        assertThat(o.workloads()).containsExactly(Workload.BURST, Workload.STEADY, Workload.SLEEPERS, Workload.RETRIES);
        assertThat(o.jobs()).isEqualTo(20_000);
        assertThat(o.concurrency()).isEqualTo(256);
        assertThat(o.warmup()).isEqualTo(BenchOptions.AUTO_WARMUP);
        assertThat(o.rate()).isEqualTo(100);
        assertThat(o.duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.baseline()).isNaN();
        assertThat(o.home()).isEqualTo(Path.of("/repo/.jobweaver"));
        assertThat(o.out()).isNull();
        assertThat(o.help()).isFalse();
    }

    @Test
    void workloadsRunInTheirFixedOrderWhateverTheCommandLineOrder() {
        BenchOptions o = BenchOptions.parse(List.of("sleepers", "burst"), CWD);
        assertThat(o.workloads()).containsExactly(Workload.BURST, Workload.SLEEPERS);
    }

    @Test
    void everyOptionIsRead() {
        BenchOptions o = BenchOptions.parse(List.of("steady", "--jobs", "500", "--concurrency", "8", "--rate", "250",
                "--duration", "2m", "--baseline", "1800", "--warmup", "0", "--settle", "5s", "--timeout", "500ms", "--home", "h",
                "--out", "/tmp/x"), CWD);
        assertThat(o.workloads()).containsExactly(Workload.STEADY);
        assertThat(o.jobs()).isEqualTo(500);
        assertThat(o.concurrency()).isEqualTo(8);
        assertThat(o.rate()).isEqualTo(250);
        assertThat(o.duration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(o.baseline()).isEqualTo(1800);
        assertThat(o.warmup()).isZero();
        assertThat(BenchOptions.parse(List.of("--warmup", "auto"), CWD).warmup()).isEqualTo(BenchOptions.AUTO_WARMUP);
        assertThat(BenchOptions.parse(List.of("--warmup", "5000"), CWD).warmup()).isEqualTo(5000);
        assertThat(o.settle()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.timeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(o.home()).isEqualTo(Path.of("/repo/h"));
        assertThat(o.out()).isEqualTo(Path.of("/tmp/x"));
    }

    @Test
    void steadySettlesForTwentySecondsUnlessToldOtherwise() {
        assertThat(BenchOptions.parse(List.of("steady"), CWD).settle()).isEqualTo(Duration.ofSeconds(20));
        assertThat(BenchOptions.parse(List.of("steady", "--settle", "0"), CWD).settle()).isZero();
        assertThat(BenchOptions.parse(List.of("steady", "--settle", "0s"), CWD).settle()).isZero();
        assertThatThrownBy(() -> BenchOptions.parse(List.of("steady", "--settle", "soon"), CWD))
                .hasMessageContaining("--settle needs a duration");
    }

    @Test
    void durationsTakeUnitsAndBareSeconds() {
        assertThat(BenchOptions.duration("--d", "45")).isEqualTo(Duration.ofSeconds(45));
        assertThat(BenchOptions.duration("--d", "1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(BenchOptions.duration("--d", "1h")).isEqualTo(Duration.ofHours(1));
        assertThatThrownBy(() -> BenchOptions.duration("--d", "soon")).hasMessageContaining("--d needs a duration");
        assertThatThrownBy(() -> BenchOptions.duration("--d", "0s")).hasMessageContaining("positive");
    }

    @Test
    void badInputIsNamed() {
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--jobs", "many"), CWD))
                .hasMessage("--jobs needs a number, not 'many'");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--rate", "0"), CWD))
                .hasMessage("--rate needs a positive number, not '0'");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--jobs"), CWD)).hasMessage("--jobs needs a value");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--jobs", "1.5"), CWD))
                .hasMessage("--jobs needs a whole number, not '1.5'");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--warmup", "-1"), CWD))
                .hasMessage("--warmup needs a number of at least 0, not '-1'");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("--fast"), CWD)).hasMessage("unknown option --fast");
        assertThatThrownBy(() -> BenchOptions.parse(List.of("storm"), CWD))
                .hasMessageContaining("unknown workload 'storm'").hasMessageContaining("burst, steady, sleepers, retries");
    }

    @Test
    void helpIsRecognised() {
        assertThat(BenchOptions.parse(List.of("-h"), CWD).help()).isTrue();
        assertThat(BenchOptions.USAGE).contains("--concurrency", "--rate", "--duration", "--baseline", "--out");
    }
}
