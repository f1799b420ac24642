package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workflow figures in the console, summary.json, report.html, the targets and the raw files. */
class WorkflowReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    /**
     * Two fan-out runs whose join starts 13 and 23 ms after the last branch; four diamond runs lasting 100 to 400 ms
     * (the last ends 430 ms after the first request), one of which {@code failed} when asked.
     */
    private static WorkloadResult workflow(boolean failed) {
        List<WorkflowRuns.Run> runs = new ArrayList<>(List.of(WorkflowRunsTest.fanOut(0, 13),
                WorkflowRunsTest.fanOut(1_000, 23)));
        runs.add(WorkflowRunsTest.diamond(10_000, 100));
        runs.add(WorkflowRunsTest.diamond(10_010, 200));
        runs.add(WorkflowRunsTest.diamond(10_020, 300));
        runs.add(failed ? WorkflowRunsTest.diamond(10_030, 400, "FAILED", null) : WorkflowRunsTest.diamond(10_030,
                400));
        return WorkloadResult.flowed(new BenchOptions.Run(Workload.WORKFLOW, 64, "workflow"),
                WorkflowRuns.of(runs, 2, 4, 64, 2), "fan-out and diamond");
    }

    private static WorkloadResult burst() {
        List<JobRecord> jobs = List.of(Fixtures.completed(JobKind.NOOP, 0, 1, 250),
                Fixtures.completed(JobKind.NOOP, 0, 1, 500));
        return Fixtures.burst(jobs);
    }

    private static BenchRun run(WorkloadResult... results) {
        return Fixtures.run(List.of("burst", "workflow", "--workflow-runs", "2", "--diamond-runs", "4"), results);
    }

    @Test
    void theConsoleHasTheRunsTheRatesAndTheTimes() {
        BenchRun run = run(burst(), workflow(false));
        String text = ConsoleReport.render(run);
        assertThat(text).contains(FeatureTables.WORKFLOW_TITLE, FeatureTables.WORKFLOW_COUNTS_TITLE);
        assertThat(text).containsPattern("workflow +runs below +0 +0 +0\n");
        assertThat(text).containsPattern("workflow +fan-out +100 +2 +0 +2 +200 +200 +- +- +- +2\n");
        // 4 runs over 430 ms: 9.30 runs/s, 46.5 node jobs/s; the burst: 2 jobs over 500 ms
        assertThat(text).containsPattern("workflow +diamond c=64 +5 +4 +0 +4 +20 +20 +9\\.30 +46\\.5 +4 *\n");
        assertThat(text).containsPattern("workflow +fan-out: last branch finished to join started +2 +13(\\.0)? "
                + "+23 +23 +23 +23\n");
        assertThat(text).containsPattern("workflow +diamond: run request to run finished +4 ");
        assertThat(text).contains("fan-out and diamond");
        Fixtures.assertRow(target(run, "workflow correctness"), "pass", "6/6 runs as expected, 0 lost, 0 duplicated, 0 unexpected");
    }

    @Test
    void aFailedRunMissesTheCorrectnessTargetAndNamesTheRun() {
        BenchRun run = run(workflow(true));
        String text = ConsoleReport.render(run);
        assertThat(text).containsPattern("workflow +runs below +0 +0 +1\n");
        assertThat(text).contains("(diamond run): ended FAILED; node e: not listed, no job in jobweaver_api.jobs");
        // the failed run's e has no job; 3 runs completed by 320 ms
        assertThat(text).containsPattern("workflow +diamond c=64 +5 +4 +0 +3 +20 +19 +9\\.38 +46\\.9 +- *\n");
        Fixtures.assertRow(target(run, "workflow correctness"), "miss", "5/6 runs as expected, 0 lost, 0 duplicated, 1 unexpected");
    }

    @Test
    void summaryJsonHtmlAndTheRawFilesCarryTheSameFigures() throws Exception {
        BenchRun run = run(burst(), workflow(false));
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/options/workflowRuns").asInt()).isEqualTo(2);
        assertThat(json.at("/options/diamondRuns").asInt()).isEqualTo(4);
        JsonNode w = json.at("/workloads/1/workflow");
        assertThat(w.at("/fanOut/nodes").asInt()).isEqualTo(100);
        assertThat(w.at("/fanOut/completed").asInt()).isEqualTo(2);
        assertThat(w.at("/fanOut/nodeJobsOnce").asInt()).isEqualTo(200);
        assertThat(w.at("/fanOut/lastBranchFinishToJoinStartMs/max").asDouble()).isEqualTo(23);
        assertThat(w.at("/fanOut/createdToJoinStartMs/count").asInt()).isEqualTo(2);
        assertThat(w.at("/diamond/runsPerSecond").asDouble()).isEqualTo(9.302);
        assertThat(w.at("/diamond/nodeJobsPerSecond").asDouble()).isEqualTo(46.512);
        assertThat(w.at("/diamond/requestToFinishedMs/max").asDouble()).isEqualTo(400);
        assertThat(w.at("/diamond/concurrency").asInt()).isEqualTo(64);
        assertThat(w.path("workflowsDeleted").asInt()).isEqualTo(2);
        assertThat(json.at("/workloads/1/correctness/asExpected").asInt()).isEqualTo(6);
        assertThat(json.at("/workloads/1/submission").isMissingNode()).isTrue();

        String html = HtmlReport.render(run);
        assertThat(html).contains("<h2>Workflow</h2>",
                "<td>workflow</td><td>fan-out: last branch finished to join started</td><td>2</td>",
                "<td>workflow</td><td>diamond c=64</td><td>5</td><td>4</td>",
                "<td colspan=\"11\" class=\"na\">runs below</td><td>6/6 as expected");

        Path out = folder.resolve("x");
        Bench.write(out, run);
        List<String> runs = Files.readAllLines(out.resolve("workflow-runs.csv"));
        assertThat(runs).hasSize(7);
        assertThat(runs.getFirst()).isEqualTo(WorkflowRuns.RUNS_HEADER);
        List<String> jobs = Files.readAllLines(out.resolve("workflow-jobs.csv"));
        assertThat(jobs).hasSize(1 + 200 + 20);
        assertThat(jobs.getFirst()).isEqualTo(RawFiles.JOBS_HEADER);
        assertThat(out.resolve("workflow-jobs.json")).as("runs, not submitted jobs").doesNotExist();
    }

    @Test
    void otherWorkloadsHaveNoWorkflowTables() {
        assertThat(FeatureTables.workflowTimes(List.of(burst()))).isNull();
        assertThat(FeatureTables.workflowCounts(List.of(burst()))).isNull();
        assertThat(SummaryJson.of(JSON, run(burst())).at("/workloads/0/workflow").isMissingNode()).isTrue();
        assertThat(FeatureTables.workflowTimes(List.of(WorkloadResult.unavailable(
                new BenchOptions.Run(Workload.WORKFLOW, 64, "workflow"), "the platform does not support workflows"))))
                .isNull();
        assertThat(ConsoleReport.render(run(burst()))).doesNotContain(FeatureTables.WORKFLOW_TITLE);
    }
}
