package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.completed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.local.Platform;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code bench compare} over folders the bench's own writer filled, and what it says of folders it cannot read. */
class CompareCommandTest extends CommandTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Writes every file of a run of {@code results} on {@code platform} into {@code cwd/folder}, as the bench does. */
    private Path written(String folder, PlatformState platform, Map<String, Double> rssAtStart,
                         List<String> args, WorkloadResult... results) {
        Path dir = cwd.resolve(folder);
        Bench.write(dir, Fixtures.run(BenchOptions.parse(args, cwd), List.of(results), platform, rssAtStart));
        return dir;
    }

    private static PlatformState platform(String runtime, long apiReadyMs) {
        return new PlatformState("http://localhost:8080", 5432, 99, 98, List.of(
                new PlatformState.Instance("api-service", "http://localhost:8080", 10, apiReadyMs),
                new PlatformState.Instance("worker-service", "http://localhost:8082", 12, -1)), true, runtime);
    }

    private static WorkloadResult burst(long finishMs) {
        return Fixtures.burst(List.of(completed(JobKind.NOOP, 0, 4, finishMs), completed(JobKind.NOOP, 1, 6, 20)));
    }

    @Test
    void twoRunsOfDifferentRuntimesStandSideBySideAWorkloadOnlyOneRanShowsDashesForTheOther() {
        written("jvm-run", platform(Platform.RUNTIME_JVM, 1500), Map.of("api-service", 261.0),
                List.of("burst"), burst(10));
        written("native-run", platform(Platform.RUNTIME_NATIVE, 300), Map.of(), List.of("burst", "retries"),
                burst(30), WorkloadResult.unavailable(Workload.RETRIES, "the API rejects \"times\" <400>"));

        assertThat(execute("bench", "compare", "jvm-run", cwd.resolve("native-run").toString())).isZero();

        String text = out.toString();
        assertThat(err.toString()).isEmpty();
        // each column headed by the run's runtime, start and folder, one a line
        assertThat(text).containsPattern("figure\\s+JVM\\s+native\\n\\s+2026-01-01 00:00:00Z\\s+2026-01-01 "
                + "00:00:00Z\\n\\s+jvm-run\\s+native-run\\n");
        assertThat(text).contains("\nPlatforms\n", "\nWorkload burst\n", "\nWorkload retries\n",
                "\nTargets (verdicts; reported, not asserted)\n");
        assertThat(text).containsPattern("runtime\\s+JVM\\s+native\\n");
        assertThat(text).containsPattern("ready ms api-service\\s+1500\\s+300\\n");
        // RSS at the start not recorded: "-"; a figure no run has (the worker's ready time) has no row
        assertThat(text).containsPattern("RSS at start MiB api-service\\s+261\\s+-\\n");
        assertThat(text).doesNotContain("ready ms worker-service");
        assertThat(text).containsPattern("jobs accepted\\s+2\\s+2\\n");
        assertThat(text).containsPattern("submit to start ms p50\\s+4\\.00\\s+4\\.00\\n");
        assertThat(text).containsPattern("submit to completed ms max\\s+19\\s+30\\n");
        assertThat(text).containsPattern("correctness\\s+all 2 as expected\\s+all 2 as expected\\n");
        assertThat(text).containsPattern("stage worker: started to finished ms p99\\s+14\\s+26\\n");
        // retries: only the native run has it, and there it is unavailable
        String retries = text.substring(text.indexOf("\nWorkload retries\n"), text.indexOf("\nTargets"));
        assertThat(retries).containsPattern("available\\s+-\\s+no\\n");
        assertThat(retries).containsPattern("note\\s+-\\s+the API rejects \"times\" <400>\\n");
        assertThat(retries).doesNotContain("throughput");
    }

    @Test
    void aRowIsAFigureOfTheSummaryAndARunWithoutItShowsADash() {
        written("one", platform(Platform.RUNTIME_JVM, 1500), Map.of(), List.of("burst"), burst(10));
        written("two", platform(Platform.RUNTIME_JVM, 1400), Map.of(), List.of("burst"), burst(10));

        assertThat(execute("bench", "compare", "one", "two", "one")).isZero();

        assertThat(out.toString()).containsPattern("ready ms api-service\\s+1500\\s+1400\\s+1500\\n")
                .containsPattern("--jobs\\s+20000\\s+20000\\s+20000\\n")
                .containsPattern("burst correctness\\s+pass\\s+pass\\s+pass\\n");
    }

    @Test
    void aSummaryWithoutAFormatVersionIsReadAsTheFirst() throws Exception {
        Path dir = written("old", platform(Platform.RUNTIME_JVM, 1500), Map.of(), List.of("burst"), burst(10));
        ObjectNode summary = (ObjectNode) JSON.readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.path("formatVersion").asInt()).isEqualTo(SummaryJson.FORMAT_VERSION);
        summary.remove("formatVersion");
        JSON.writeValue(dir.resolve("summary.json").toFile(), summary);

        assertThat(execute("bench", "compare", "old")).isZero();
        assertThat(out.toString()).containsPattern("throughput jobs/s\\s+\\d");
    }

    @Test
    void noFolderIsBadUsageWithStatusTwo() {
        assertThat(execute("bench", "compare")).isEqualTo(2);
        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver bench compare: no run folder named: name one or more folders bench wrote, e.g. "
                        + ".jobweaver/bench/20261129-224200",
                "Run ./jobweaver bench compare --help for the options.");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aFolderThatDoesNotExistIsNamedWithStatusTwo() {
        written("one", platform(Platform.RUNTIME_JVM, 1500), Map.of(), List.of("burst"), burst(10));

        assertThat(execute("bench", "compare", "one", "gone")).isEqualTo(2);

        assertThat(err.toString()).isEqualTo("jobweaver bench compare: " + cwd.resolve("gone") + " does not exist"
                + System.lineSeparator());
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aFolderWithoutASummaryIsNamedWithStatusTwo() throws Exception {
        Files.createDirectories(cwd.resolve("empty"));
        Files.writeString(cwd.resolve("file"), "x");

        assertThat(execute("bench", "compare", "empty")).isEqualTo(2);
        assertThat(execute("bench", "compare", "file")).isEqualTo(2);

        assertThat(err.toString().lines().toList()).containsExactly(
                "jobweaver bench compare: " + cwd.resolve("empty") + " holds no summary.json: it is not a folder a "
                        + "bench run wrote, or that run did not finish",
                "jobweaver bench compare: " + cwd.resolve("file") + " is not a folder: name the folder a bench run "
                        + "wrote its figures to");
    }

    @Test
    void aSummaryOfAnUnknownFormatVersionOrNotOfTheBenchIsNamedWithStatusTwo() throws Exception {
        Path dir = written("future", platform(Platform.RUNTIME_JVM, 1500), Map.of(), List.of("burst"), burst(10));
        Path file = dir.resolve("summary.json");
        ObjectNode summary = (ObjectNode) JSON.readTree(file.toFile());
        summary.put("formatVersion", 2);
        JSON.writeValue(file.toFile(), summary);
        Files.createDirectories(cwd.resolve("other"));
        Files.writeString(cwd.resolve("other/summary.json"), "{\"jobs\": 3}");
        Files.createDirectories(cwd.resolve("broken"));
        Files.writeString(cwd.resolve("broken/summary.json"), "{\"workloads\": [");

        assertThat(execute("bench", "compare", "future")).isEqualTo(2);
        assertThat(execute("bench", "compare", "other")).isEqualTo(2);
        assertThat(execute("bench", "compare", "broken")).isEqualTo(2);

        List<String> lines = err.toString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("jobweaver bench compare: " + file + " is of format version 2, which this "
                + "bench does not read (it reads version 1): compare it with the bench that wrote it");
        assertThat(lines.get(1)).isEqualTo("jobweaver bench compare: " + cwd.resolve("other/summary.json")
                + " is not a bench summary: it has no workloads");
        assertThat(lines.get(2)).startsWith("jobweaver bench compare: " + cwd.resolve("broken/summary.json")
                + " is not JSON: ");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void theSummaryHoldsWhatAComparisonNeeds() throws Exception {
        Path dir = written("run", platform(Platform.RUNTIME_NATIVE, 300), Map.of("api-service", 137.25),
                List.of("burst"), burst(10));
        var summary = JSON.readTree(dir.resolve("summary.json").toFile());

        assertThat(summary.path("formatVersion").asInt()).isEqualTo(1);
        assertThat(summary.at("/platform/runtime").asText()).isEqualTo("native");
        assertThat(summary.at("/platform/instances/0/readyMs").asLong()).isEqualTo(300);
        assertThat(summary.at("/platform/instances/0/rssAtStartMb").asDouble()).isEqualTo(137.25);
        assertThat(summary.at("/platform/instances/1/rssAtStartMb").isNull()).isTrue();
    }
}
