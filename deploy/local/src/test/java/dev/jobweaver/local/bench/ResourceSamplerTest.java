package dev.jobweaver.local.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceSamplerTest {

    @TempDir
    Path proc;

    private void process(long pid, long rssKb, long utime) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("status"), "Name:\tjava\nVmRSS:\t" + rssKb + " kB\n");
        Files.writeString(dir.resolve("stat"), ProcStatsTest.stat("java", utime, 0));
    }

    @Test
    void readsEachLiveProcessAndSkipsTheGoneOnes() throws IOException {
        process(10, 204_800, 100);
        ResourceSampler sampler = new ResourceSampler(List.of(
                new PlatformState.Instance("api-service", "", 10, 1),
                new PlatformState.Instance("worker-service", "", 11, 1),
                new PlatformState.Instance("unknown", "", -1, 1)), proc);
        sampler.sampleOnce();
        process(10, 102_400, 200);
        sampler.sampleOnce();
        List<ResourceSample> samples = sampler.samples();
        assertThat(samples).extracting(ResourceSample::process).containsExactly("api-service", "api-service");
        assertThat(samples.getFirst().rssKb()).isEqualTo(204_800);
        assertThat(samples.getFirst().cpuPercent()).as("no previous reading").isNaN();
        assertThat(samples.get(1).cpuPercent()).isPositive();
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
    }
}
