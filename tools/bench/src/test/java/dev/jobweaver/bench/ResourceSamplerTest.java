package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceSamplerTest {

    @TempDir
    Path proc;

    private void process(long pid, long rssKb, long shmemKb, long utime) throws IOException {
        process(pid, rssKb, shmemKb, 0, utime);
    }

    private void process(long pid, long rssKb, long shmemKb, long fileKb, long utime) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("status"), "Name:\tjava\nVmRSS:\t" + rssKb + " kB\nRssFile:\t" + fileKb
                + " kB\nRssShmem:\t" + shmemKb + " kB\n");
        Files.writeString(dir.resolve("stat"), ProcStatsTest.stat("java", utime, 0));
    }

    private void thread(long pid, long tid, String comm, long utime) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
        Files.writeString(dir.resolve("comm"), comm + "\n");
        Files.writeString(dir.resolve("stat"), ProcStatsTest.stat(comm, utime, 0));
    }

    private ResourceSampler sampler(List<SampledProcess> processes, Map<Long, List<Long>> children) {
        return new ResourceSampler(processes, proc, pid -> children.getOrDefault(pid, List.of()));
    }

    @Test
    void readsEachLiveProcessAndSkipsTheGoneOnes() throws IOException {
        process(10, 204_800, 0, 4_000, 100);
        ResourceSampler sampler = sampler(List.of(new SampledProcess("api-service", 10, false),
                new SampledProcess("worker-service", 11, false), new SampledProcess("unknown", -1, false)), Map.of());
        sampler.sampleOnce();
        process(10, 102_400, 0, 200);
        sampler.sampleOnce();
        List<ResourceSample> samples = sampler.samples();
        assertThat(samples).extracting(ResourceSample::process).containsExactly("api-service", "api-service");
        assertThat(samples.getFirst().rssKb()).isEqualTo(204_800);
        assertThat(samples.get(1).rssKb()).isEqualTo(102_400);
        assertThat(samples.getFirst().cpuPercent()).as("no previous reading").isNaN();
        assertThat(samples.get(1).cpuPercent()).isPositive();
        sampler.close();
    }

    @Test
    void aProcessTreeCountsSharedMemoryOnceAndCpuOfEveryProcess() throws IOException {
        // postmaster and two backends, each mapping the same 100 MB of shared buffers and 8 MB of libraries
        process(20, 118_000, 100_000, 8_000, 10);
        process(21, 158_000, 100_000, 8_000, 10);
        process(22, 138_000, 100_000, 8_000, 10);
        ResourceSampler sampler = sampler(List.of(new SampledProcess("postgres", 20, true)),
                Map.of(20L, List.of(21L, 22L, 23L)));
        sampler.sampleOnce();
        ResourceSample first = sampler.samples().getFirst();
        assertThat(first.rssKb()).isEqualTo(10_000 + 50_000 + 30_000 + 100_000 + 8_000);
        process(21, 158_000, 100_000, 8_000, 1_000);
        sampler.sampleOnce();
        assertThat(sampler.samples().get(1).cpuPercent()).isPositive();
    }

    @Test
    void aTreeThatLostAChildReportsNoNegativeCpu() throws IOException {
        process(30, 1_000, 0, 10);
        process(31, 1_000, 0, 5_000);
        ResourceSampler sampler = sampler(List.of(new SampledProcess("postgres", 30, true)),
                Map.of(30L, List.of(31L)));
        sampler.sampleOnce();
        Files.delete(proc.resolve("31/status"));
        sampler.sampleOnce();
        assertThat(sampler.samples().get(1).cpuPercent()).isZero();
    }

    @Test
    void aJvmsCompilerAndCollectorThreadsAreReadApart() throws IOException {
        process(40, 1_000, 0, 500);
        thread(40, 41, "main", 100);
        thread(40, 42, "C1 CompilerThre", 200);
        thread(40, 43, "VM Thread", 50);
        thread(40, 44, "GC Thread#0", 10);
        ResourceSampler sampler = sampler(List.of(new SampledProcess("worker-service", 40, false)), Map.of());
        sampler.sampleOnce();
        assertThat(sampler.samples().getFirst().jitCpuSeconds()).as("no previous reading").isNaN();
        process(40, 1_000, 0, 900);
        thread(40, 42, "C1 CompilerThre", 350); // 1.5 s more
        thread(40, 43, "VM Thread", 70);        // 0.2 s more
        thread(40, 44, "GC Thread#0", 20);      // 0.1 s more
        thread(40, 41, "main", 300);            // the application's: counted in CPU only
        sampler.sampleOnce();
        ResourceSample second = sampler.samples().get(1);
        assertThat(second.jitCpuSeconds()).isEqualTo(1.5);
        assertThat(second.gcCpuSeconds()).isCloseTo(0.3, within(1e-9));
    }

    @Test
    void aProcessWithoutJvmThreadsAndAProcessTreeHaveNoJvmFigures() throws IOException {
        process(50, 1_000, 0, 10);
        thread(50, 51, "postgres", 10);
        process(60, 1_000, 0, 10);
        thread(60, 61, "C1 CompilerThre", 10); // a tree is never read per thread
        ResourceSampler sampler = sampler(List.of(new SampledProcess("plain", 50, false),
                new SampledProcess("postgres", 60, true)), Map.of());
        sampler.sampleOnce();
        sampler.sampleOnce();
        assertThat(sampler.samples()).hasSize(4).allSatisfy(s -> {
            assertThat(s.jitCpuSeconds()).isNaN();
            assertThat(s.gcCpuSeconds()).isNaN();
        });
    }

    @Test
    void aCompilerThreadThatEndsNeverMakesTheFigureNegative() throws IOException {
        process(70, 1_000, 0, 10);
        thread(70, 71, "C1 CompilerThre", 500);
        thread(70, 72, "C1 CompilerThre", 100);
        ResourceSampler sampler = sampler(List.of(new SampledProcess("api-service", 70, false)), Map.of());
        sampler.sampleOnce();
        Files.delete(proc.resolve("70/task/71/stat"));
        sampler.sampleOnce();
        assertThat(sampler.samples().get(1).jitCpuSeconds()).isZero();
    }

    @Test
    void eachReadingTakesTheMachinesCpuTime() throws IOException {
        process(10, 1_024, 0, 100);
        ResourceSampler sampler = sampler(List.of(new SampledProcess("api-service", 10, false)), Map.of());
        Files.writeString(proc.resolve("stat"), MachineCpuTest.procStat(100, 50, 800, 50));
        sampler.sampleOnce();
        Files.writeString(proc.resolve("stat"), MachineCpuTest.procStat(160, 70, 880, 90));
        sampler.sampleOnce();
        List<MachineCpu> readings = sampler.machineReadings();
        assertThat(readings).extracting(MachineCpu::stealTicks).containsExactly(50L, 90L);
        MachineCpu.Load load = MachineCpu.Load.of(readings, Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(load.busyPercent()).isCloseTo(40.0, within(1e-9));
        assertThat(load.stolenPercent()).isCloseTo(20.0, within(1e-9));
        sampler.close();
    }

    @Test
    void withoutProcStatTheProcessesAreStillRead() throws IOException {
        process(10, 1_024, 0, 100);
        ResourceSampler sampler = sampler(List.of(new SampledProcess("api-service", 10, false)), Map.of());
        sampler.sampleOnce();
        assertThat(sampler.machineReadings()).isEmpty();
        assertThat(sampler.samples()).hasSize(1);
        sampler.close();
    }

    @Test
    void summariesPerProcessWithinTheWindow() {
        List<ResourceSample> samples = List.of(
                new ResourceSample(1_000, "api", 102_400, Double.NaN),
                new ResourceSample(2_000, "api", 204_800, 50),
                new ResourceSample(3_000, "api", 307_200, 150),
                new ResourceSample(2_000, "kafka", 512_000, 10),
                new ResourceSample(9_000, "api", 1_024_000, 300));
        List<ResourceSummary> all = ResourceSummary.of(samples, 0, 5_000);
        assertThat(all).extracting(ResourceSummary::process).containsExactly("api", "kafka");
        ResourceSummary api = all.getFirst();
        assertThat(api.samples()).isEqualTo(3);
        assertThat(api.maxRssMb()).isEqualTo(300);
        assertThat(api.meanRssMb()).isEqualTo(200);
        assertThat(api.meanCpuPercent()).isEqualTo(100);
        assertThat(api.maxCpuPercent()).isEqualTo(150);
        assertThat(ResourceSummary.of(samples, 0, 1_500).getFirst().meanCpuPercent()).isNaN();
        assertThat(api.jitCpuSeconds()).as("no JVM figures in the window").isNaN();
    }

    @Test
    void summariesAddUpTheJvmThreadsCpuWithinTheWindow() {
        List<ResourceSample> samples = List.of(
                new ResourceSample(1_000, "api", 1_024, Double.NaN),
                new ResourceSample(2_000, "api", 1_024, 50, 0.5, 0.25),
                new ResourceSample(3_000, "api", 1_024, 50, 0.25, Double.NaN),
                new ResourceSample(9_000, "api", 1_024, 50, 4, 4));
        ResourceSummary api = ResourceSummary.of(samples, 0, 5_000).getFirst();
        assertThat(api.jitCpuSeconds()).isEqualTo(0.75);
        assertThat(api.gcCpuSeconds()).isEqualTo(0.25);
    }
}
