package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The delayed-idle measurement's CPU per second of wall time, from /proc readings. */
class IdleCpuTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path proc;

    private void process(long pid, long utime, long stime) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("stat"), ProcStatsTest.stat("java", utime, stime));
    }

    @Test
    void ticksAreMillisecondsPerSecondOfWallTime() {
        // 100 ticks a second: 30 ticks over 30 s are 300 ms of CPU, 10 ms a second
        assertThat(IdleCpu.msPerSecond(1_000, 1_030, 30 * SECOND)).isCloseTo(10, within(1e-9));
        assertThat(IdleCpu.msPerSecond(5, 5, SECOND)).isZero();
        assertThat(IdleCpu.msPerSecond(5, 4, SECOND)).isNaN();
        assertThat(IdleCpu.msPerSecond(5, 6, 0)).isNaN();
    }

    @Test
    void aTreeCountsTheGrowthOfEveryProcessAndAllOfOneThatAppeared() throws IOException {
        List<SampledProcess> processes = List.of(new SampledProcess("scheduler-service", 10, false),
                new SampledProcess("postgres", 20, true), new SampledProcess("gone", 30, false));
        process(10, 100, 50);
        process(20, 10, 0);
        process(21, 40, 0);
        process(22, 7, 0);
        Map<Long, List<Long>> children = new LinkedHashMap<>(Map.of(20L, List.of(21L, 22L)));
        Map<String, Map<Long, Long>> before = IdleCpu.ticks(processes, proc, pid -> children.getOrDefault(pid,
                List.of()));
        assertThat(before).containsOnlyKeys("scheduler-service", "postgres");

        process(10, 130, 70);     // +50 ticks
        process(20, 12, 0);       // +2
        Files.delete(proc.resolve("22/stat"));   // a backend that ended: its CPU is not counted
        process(23, 5, 0);        // a backend that started: all of its 5 ticks are in the window
        children.put(20L, List.of(21L, 23L));
        process(21, 41, 0);       // +1
        Map<String, Map<Long, Long>> after = IdleCpu.ticks(processes, proc, pid -> children.getOrDefault(pid,
                List.of()));

        Map<String, Double> rates = IdleCpu.rates(before, after, 10 * SECOND);
        assertThat(rates.get("scheduler-service")).isCloseTo(50.0, within(1e-9));   // 500 ms over 10 s
        assertThat(rates.get("postgres")).isCloseTo(8.0, within(1e-9));             // 80 ms over 10 s
    }

    @Test
    void aProcessGoneByTheSecondReadingHasNoFigure() throws IOException {
        List<SampledProcess> processes = List.of(new SampledProcess("scheduler-service", 10, false));
        process(10, 1, 1);
        Map<String, Map<Long, Long>> before = IdleCpu.ticks(processes, proc, pid -> List.of());
        Files.delete(proc.resolve("10/stat"));
        Map<String, Double> rates = IdleCpu.rates(before, IdleCpu.ticks(processes, proc, pid -> List.of()), SECOND);
        assertThat(rates.get("scheduler-service")).isNaN();
    }

    @Test
    void bothWindowsSideBySideAndTheSchedulersPickedOut() {
        Map<String, Double> empty = new LinkedHashMap<>();
        empty.put("api-service", 2.0);
        empty.put("scheduler-service", 4.0);
        Map<String, Double> loaded = new LinkedHashMap<>();
        loaded.put("scheduler-service", 5.5);
        loaded.put("scheduler-service-2", 3.0);
        List<IdleCpu.ProcessCpu> rows = IdleCpu.combine(empty, loaded);
        assertThat(rows).containsExactly(new IdleCpu.ProcessCpu("api-service", 2.0, Double.NaN),
                new IdleCpu.ProcessCpu("scheduler-service", 4.0, 5.5),
                new IdleCpu.ProcessCpu("scheduler-service-2", Double.NaN, 3.0));
        IdleCpu idle = new IdleCpu(1_000_000, Duration.ofDays(1), 12.5, Duration.ofSeconds(30), rows, 1_000_000);
        assertThat(idle.schedulers()).extracting(IdleCpu.ProcessCpu::process)
                .containsExactly("scheduler-service", "scheduler-service-2");
        assertThat(idle.of("api-service").emptyMsPerSecond()).isEqualTo(2.0);
        assertThat(idle.of("kafka")).isNull();
    }
}
