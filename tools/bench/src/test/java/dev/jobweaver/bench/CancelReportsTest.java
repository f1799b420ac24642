package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cancel figures in the console, summary.json, report.html, the targets and the raw files. */
class CancelReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    /**
     * Three waiting jobs visible CANCELLED 10, 20 and 30 ms after their cancel's 202, two running ones interrupted 5
     * and 7 ms after it, one of which a waiting job ran; the scheduler 2 ms after the 202 for each.
     */
    private static WorkloadResult cancel(boolean oneRan) {
        List<JobRecord> records = new ArrayList<>();
        List<Cancels.Job> cancelled = new ArrayList<>();
        long[] visible = {10, 20, 30};
        for (int i = 0; i < visible.length; i++) {
            JobRecord r = Fixtures.ended(JobKind.NOOP, "CANCELLED", 0, oneRan && i == 0 ? 1 : 0)
                    .withControl(Control.delayed(Cancels.WAITING_DELAY_MS), at(60_000), null);
            records.add(r);
            cancelled.add(new Cancels.Job(r.jobId(), Cancels.Kind.WAITING, 202, 3.0, at(100), at(102),
                    at(100 + visible[i]), "CANCELLED", r.executions(), null, null));
        }
        long[] interrupt = {5, 7};
        for (long ms : interrupt) {
            JobRecord r = Fixtures.ended(JobKind.LONG_SLEEPER, "CANCELLED", 1, 1);
            records.add(r);
            cancelled.add(new Cancels.Job(r.jobId(), Cancels.Kind.RUNNING, 202, 4.0, at(100), at(102), at(140),
                    "CANCELLED", 1, at(100 + ms), "WORKER.CANCELLED"));
        }
        return WorkloadResult.cancelled(new BenchOptions.Run(Workload.CANCEL, Cancels.CONCURRENCY, "cancel"),
                Fixtures.submission(records.size()), records, cancelled, "waiting: 3 no-op jobs");
    }

    private static BenchRun run(WorkloadResult cancel) {
        return Fixtures.run(List.of("cancel", "--cancel-jobs", "5"), cancel);
    }

    @Test
    void theConsoleHasTheTimesPerGroupAndTheCounts() {
        String text = ConsoleReport.render(run(cancel(false)));
        assertThat(text).contains(ControlTables.CANCEL_TITLE, ControlTables.CANCEL_COUNTS_TITLE);
        // a p50 between two values is the histogram bucket's end: 20.0 and 5.00, not 20 and 5
        assertThat(text)
                .containsPattern("cancel +waiting +202 to CANCELLED visible in the API +3 +20\\.0 +30 +30 +30\n");
        assertThat(text).containsPattern("cancel +waiting +202 to CANCELLED in the scheduler +3 +2 +2 +2 +2\n");
        assertThat(text).containsPattern("cancel +running +202 to the worker's interrupt +2 +5\\.00 +7 +7 +7\n");
        assertThat(text).containsPattern("cancel +running +request to 202 +2 +4 +4 +4 +4\n");
        assertThat(text).doesNotContainPattern("cancel +waiting +202 to the worker's interrupt");
        assertThat(text).containsPattern("cancel +waiting +3 +0 +0 +0 +-\n");
        assertThat(text).containsPattern("cancel +running +2 +0 +0 +- +0\n");
        assertThat(text).contains("cancel: waiting: 3 no-op jobs");
        assertThat(text).doesNotContain(ControlTables.LATENESS_TITLE);
    }

    @Test
    void aWaitingJobThatRanIsCountedAndFailsTheCorrectnessTarget() {
        WorkloadResult ran = cancel(true);
        String text = ConsoleReport.render(run(ran));
        assertThat(text).containsPattern("cancel +waiting +3 +0 +0 +1 +-\n");
        TargetRow correctness = Fixtures.target(run(ran), "cancel correctness");
        Fixtures.assertRow(correctness, "miss", "4/5 as expected, 0 lost, 0 duplicated, 1 unexpected");
        TargetRow passing = Fixtures.target(run(cancel(false)), "cancel correctness");
        assertThat(passing.verdict()).isEqualTo("pass");
    }

    @Test
    void summaryJsonAndHtmlCarryTheSameFigures() {
        BenchRun run = run(cancel(false));
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/options/workloads").toString()).isEqualTo("[\"cancel\"]");
        assertThat(json.at("/options/cancelJobs").asInt()).isEqualTo(5);
        JsonNode waiting = json.at("/workloads/0/cancel/groups/0");
        assertThat(waiting.path("group").asText()).isEqualTo("waiting");
        assertThat(waiting.path("jobs").asInt()).isEqualTo(3);
        assertThat(waiting.path("ran").asInt()).isZero();
        assertThat(waiting.has("notInterrupted")).isFalse();
        assertThat(waiting.has("toInterruptMs")).isFalse();
        assertThat(waiting.at("/toVisibleCancelledMs/max").asDouble()).isEqualTo(30);
        assertThat(waiting.at("/toSchedulerCancelledMs/count").asInt()).isEqualTo(3);
        JsonNode running = json.at("/workloads/0/cancel/groups/1");
        assertThat(running.path("group").asText()).isEqualTo("running");
        assertThat(running.path("notInterrupted").asInt()).isZero();
        assertThat(running.has("ran")).isFalse();
        assertThat(running.at("/toInterruptMs/max").asDouble()).isEqualTo(7);
        assertThat(running.at("/cancelAnswerMs/p50").asDouble()).isEqualTo(4);
        assertThat(json.at("/workloads/0/correctness/asExpected").asInt()).isEqualTo(5);
        assertThat(json.at("/workloads/0/lateness").isMissingNode()).isTrue();

        String html = HtmlReport.render(run);
        assertThat(html).contains("<h2>Cancel</h2>",
                "<td>cancel</td><td>running</td><td>202 to the worker's interrupt</td><td>2</td><td>5.00</td>",
                "<td>cancel</td><td>waiting</td><td>3</td><td>0</td><td>0</td><td>0</td><td>-</td>");
        assertThat(html).doesNotContain("<h2>Delayed jobs</h2>");
    }

    @Test
    void otherWorkloadsHaveNoCancelTables() {
        WorkloadResult burst = Fixtures.burst(List.of(Fixtures.completed(JobKind.NOOP, 0, 1, 2)));
        assertThat(ControlTables.cancelTimes(List.of(burst))).isNull();
        assertThat(ControlTables.cancelCounts(List.of(burst))).isNull();
        assertThat(SummaryJson.of(JSON, run(burst)).at("/workloads/0/cancel").isMissingNode()).isTrue();
        assertThat(ControlTables.cancelTimes(List.of(WorkloadResult.unavailable(
                new BenchOptions.Run(Workload.CANCEL, 16, "cancel"), "the platform does not support cancel"))))
                .isNull();
    }

    @Test
    void theRawFilesHaveEveryCancelledJob() throws Exception {
        Path out = folder.resolve("x");
        Bench.write(out, run(cancel(false)));
        List<String> lines = Files.readAllLines(out.resolve("cancel-jobs.csv"));
        assertThat(lines).hasSize(6);
        assertThat(lines.get(4)).contains(",long_sleeper,").contains(",CANCELLED,");
        JsonNode jobs = JSON.readTree(out.resolve("cancel-jobs.json").toFile());
        assertThat(jobs.get(0).path("delayMs").asLong()).isEqualTo(60_000);
        assertThat(UUID.fromString(jobs.get(4).path("jobId").asText())).isNotNull();
    }
}
