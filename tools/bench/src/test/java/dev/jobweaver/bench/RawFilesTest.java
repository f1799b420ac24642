package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static dev.jobweaver.bench.Fixtures.ended;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class RawFilesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void csvHasOneLinePerJobWithIsoTimestamps() {
        JobRecord done = completed(JobKind.NOOP, 0, 12, 30);
        JobRecord lost = ended(JobKind.FLAKY, null, 0, 0);
        String[] lines = RawFiles.jobsCsv(List.of(done, lost)).split("\n");
        assertThat(lines).hasSize(3);
        assertThat(lines[0]).isEqualTo(RawFiles.JOBS_HEADER);
        assertThat(lines[0]).startsWith("jobId,kind,submittedAt,createdAt,startedAt,finishedAt,");
        assertThat(lines[1]).isEqualTo(done.jobId() + ",noop,2026-01-01T00:00:00Z,2026-01-01T00:00:00.001Z,"
                + "2026-01-01T00:00:00.012Z,2026-01-01T00:00:00.030Z,2026-01-01T00:00:00.032Z,COMPLETED,1,1,5.000,"
                + "12.000,30.000,2026-01-01T00:00:00.002Z,2026-01-01T00:00:00.003Z,2026-01-01T00:00:00.032Z,2.000");
        assertThat(lines[2]).isEqualTo(lost.jobId() + ",flaky,2026-01-01T00:00:00Z,2026-01-01T00:00:00Z,,,"
                + "2026-01-01T00:00:00Z,,0,0,5.000,,,,,,");
    }

    @Test
    void csvQuotesWhatNeedsQuoting() {
        assertThat(RawFiles.csv("a,b")).isEqualTo("\"a,b\"");
        assertThat(RawFiles.csv("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(RawFiles.csv("plain")).isEqualTo("plain");
        assertThat(RawFiles.csv(null)).isEmpty();
    }

    @Test
    void jsonHasTheSameFiguresWithNulls() {
        JobRecord lost = ended(JobKind.NOOP, null, 0, 0);
        JsonNode array = RawFiles.jobsJson(JSON, List.of(completed(JobKind.NOOP, 0, 12, 30), lost));
        assertThat(array).hasSize(2);
        JsonNode first = array.get(0);
        assertThat(first.path("startedAt").asText()).isEqualTo("2026-01-01T00:00:00.012Z");
        assertThat(first.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(first.path("attempts").asInt()).isEqualTo(1);
        assertThat(first.path("submitToStartMs").asDouble()).isEqualTo(12.0);
        assertThat(first.path("visibleProbedAt").asText()).isEqualTo("2026-01-01T00:00:00.032Z");
        assertThat(first.path("finishToVisibleMs").asDouble()).isEqualTo(2.0);
        assertThat(array.get(1).get("finishToVisibleMs").isNull()).isTrue();
        assertThat(array.get(1).get("finishedAt").isNull()).isTrue();
        assertThat(array.get(1).get("submitToStartMs").isNull()).isTrue();
        assertThat(array.get(1).path("jobId").asText()).isEqualTo(lost.jobId().toString());
    }

    @Test
    void resourcesCsv() {
        String csv = RawFiles.resourcesCsv(List.of(new ResourceSample(0, "api-service", 2048, Double.NaN),
                new ResourceSample(1000, "kafka", 4096, 12.5, 0.25, 0.5)));
        assertThat(csv).isEqualTo("time,process,rssKb,cpuPercent,jitCpuSeconds,gcCpuSeconds\n"
                + "1970-01-01T00:00:00Z,api-service,2048,,,\n"
                + "1970-01-01T00:00:01Z,kafka,4096,12.500,0.250,0.500\n");
    }
}
