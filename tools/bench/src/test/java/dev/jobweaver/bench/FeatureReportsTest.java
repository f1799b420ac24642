package dev.jobweaver.bench;

import static dev.jobweaver.bench.Fixtures.at;
import static dev.jobweaver.bench.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notify and schedules figures in the console, summary.json, report.html, the targets and the raw files. */
class FeatureReportsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] KEY = "a-subscription-secret-of-32-byte".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path folder;

    /** Three no-op jobs finishing at 1,000 ms, delivered 20, 40 and 60 ms later; the last one twice. */
    private static WorkloadResult notify(boolean forged) {
        List<JobRecord> records = new ArrayList<>();
        List<Notifications.Job> jobs = new ArrayList<>();
        List<NotifyEndpoint.Delivery> deliveries = new ArrayList<>();
        long[] after = {20, 40, 60};
        for (int i = 0; i < after.length; i++) {
            JobRecord r = Fixtures.completed(JobKind.NOOP, 0, 990, 1_000);
            records.add(r);
            Notifications.Job job = new Notifications.Job(r.jobId(), 201, 3.0, at(100), KEY, "COMPLETED", at(1_000));
            jobs.add(job);
            byte[] body = ("{\"type\":\"job.completed\",\"jobId\":\"" + r.jobId() + "\",\"finishedAt\":\""
                    + at(1_000) + "\"}").getBytes(StandardCharsets.UTF_8);
            String signature = Webhooks.sign(forged && i == 0 ? "another-secret-of-thirty-2-bytes"
                    .getBytes(StandardCharsets.US_ASCII) : KEY, "msg_" + i, "1767225600", body);
            deliveries.add(NotifyEndpoint.parse("msg_" + i, "1767225600", signature, body, at(1_000 + after[i])));
            if (i == 2) {
                deliveries.add(NotifyEndpoint.parse("msg_" + i, "1767225600", signature, body, at(1_100)));
            }
        }
        return WorkloadResult.notified(new BenchOptions.Run(Workload.NOTIFY, Notifications.CONCURRENCY, "notify"),
                Fixtures.submission(3), records, Notifications.of(jobs, deliveries, 500.0),
                Notifications.correctness(jobs, deliveries), "3 no-op jobs");
    }

    /**
     * Two schedules ticking in a two-minute window, five ticks due, one of which (b's second) made no job; the
     * scheduler's metric.
     */
    private static WorkloadResult schedules() {
        ScheduleTicks.Schedule a = new ScheduleTicks.Schedule(UUID.randomUUID(), 4.0, at(0), at(60_000));
        ScheduleTicks.Schedule b = new ScheduleTicks.Schedule(UUID.randomUUID(), 6.0, at(30_000), at(90_000));
        List<ScheduleTicks.TickJob> jobs = List.of(
                new ScheduleTicks.TickJob(a.id(), at(60_000), at(60_010)),
                new ScheduleTicks.TickJob(a.id(), at(120_000), at(120_020)),
                new ScheduleTicks.TickJob(a.id(), at(180_000), at(180_015)),
                new ScheduleTicks.TickJob(b.id(), at(90_000), at(90_030)));
        ScheduleTicks.SchedulerMetric metric = new ScheduleTicks.SchedulerMetric(Map.of("0.5", 8.0, "0.99", 25.0),
                3, 9.0, 30.0, Map.of("fired", 3.0));
        List<ScheduleTicks.ProcessUse> uses = List.of(
                new ScheduleTicks.ProcessUse("scheduler-service", 2.1, 9.5, 150, 162),
                new ScheduleTicks.ProcessUse("postgres", 0.4, 3.0, 80, 81));
        ScheduleTicks ticks = ScheduleTicks.of(List.of(a, b), 0, 166.0, ScheduleTicks.INTERVAL, at(60_000),
                at(180_000), jobs, metric, uses, 2);
        return WorkloadResult.ticked(new BenchOptions.Run(Workload.SCHEDULES, ScheduleTicks.CONCURRENCY,
                "schedules"), ticks, "2 schedules");
    }

    private static BenchRun run(WorkloadResult... results) {
        return Fixtures.run(List.of("notify", "schedules", "--notify-jobs", "3", "--schedules", "2"), results);
    }

    @Test
    void theConsoleHasTheNotifyTimesAndCounts() {
        String text = ConsoleReport.render(run(notify(false)));
        assertThat(text).contains(FeatureTables.NOTIFY_TITLE, FeatureTables.NOTIFY_COUNTS_TITLE);
        // 20, 40, 60: a p50 between values is its histogram bucket's end
        assertThat(text).containsPattern("notify +finish to webhook received +3 +40\\.0 +60 +60 +60 +60\n");
        assertThat(text).containsPattern("notify +subscription request to 201 +3 +3 +3 +3 +3 +3\n");
        // 4 deliveries from 1.020 to 1.100 s: 50 a second
        assertThat(text).containsPattern("notify +3 +3 +3 +3 +0 +0 +4 +1 \\(1\\) +0 +0 +50 +500\n");
        assertThat(text).doesNotContain(FeatureTables.SCHEDULE_TITLE);
        assertThat(target(run(notify(false)), "notify correctness").verdict()).isEqualTo("pass");
    }

    @Test
    void aForgedSignatureIsCountedAndMissesTheCorrectnessTarget() {
        BenchRun run = run(notify(true));
        assertThat(ConsoleReport.render(run)).containsPattern("notify +3 +3 +3 +2 +1 +0 +4 +1 \\(1\\) +1 +0 ");
        Fixtures.assertRow(target(run, "notify correctness"), "miss", "2/3 as expected, 0 lost, 0 duplicated, 1 unexpected");
    }

    @Test
    void theConsoleHasTheTicksTheLagAndTheUse() {
        BenchRun run = run(schedules());
        String text = ConsoleReport.render(run);
        assertThat(text).contains(FeatureTables.SCHEDULE_TITLE, FeatureTables.SCHEDULE_COUNTS_TITLE,
                FeatureTables.scheduleUseTitle(schedules().schedules()));
        assertThat(text).containsPattern("schedules +ticks below +1 +0 +0\n");
        assertThat(text).containsPattern(
                "schedules +2 +0 +166 +120 +5 +4 +1 +0 +0 +fired 3 +2\n");
        assertThat(text).containsPattern("schedules +tick to job stored in the API +4 +15(\\.0)? +30 +30 +30 +30\n");
        assertThat(text).containsPattern("schedules +scheduler's tick lag \\(its metric\\) +3 +8 +- +- +25 +30\n");
        assertThat(text).containsPattern("scheduler-service +2\\.10 +9\\.50 +7\\.40 +150 +162\n");
        assertThat(text).contains("2 schedules");
        Fixtures.assertRow(target(run, "schedules correctness"), "miss", "4/5 ticks as expected, 1 lost, 0 duplicated, 0 unexpected");
    }

    @Test
    void summaryJsonAndHtmlCarryTheSameFigures() throws Exception {
        BenchRun run = run(notify(false), schedules());
        JsonNode json = SummaryJson.of(JSON, run);
        assertThat(json.at("/options/notifyJobs").asInt()).isEqualTo(3);
        assertThat(json.at("/options/schedules").asInt()).isEqualTo(2);
        assertThat(json.at("/options/scheduleWindowMs").asLong()).isEqualTo(120_000);
        JsonNode notify = json.at("/workloads/0/notify");
        assertThat(notify.path("delivered").asInt()).isEqualTo(3);
        assertThat(notify.path("duplicates").asInt()).isEqualTo(1);
        assertThat(notify.path("duplicatesSameWebhookId").asInt()).isEqualTo(1);
        assertThat(notify.at("/finishToReceiptMs/max").asDouble()).isEqualTo(60);
        assertThat(notify.at("/finishToReceiptMs/p95").asDouble()).isEqualTo(60);
        assertThat(notify.path("subscriptionsPerSecond").asDouble()).isEqualTo(500);
        JsonNode ticks = json.at("/workloads/1/schedules");
        assertThat(ticks.path("expectedTicks").asInt()).isEqualTo(5);
        assertThat(ticks.path("missing").asInt()).isEqualTo(1);
        assertThat(ticks.at("/tickToStoredMs/max").asDouble()).isEqualTo(30);
        assertThat(ticks.at("/schedulerTickLag/quantilesMs/0.99").asDouble()).isEqualTo(25);
        assertThat(ticks.at("/schedulerTickLag/ticksByOutcome/fired").asDouble()).isEqualTo(3);
        assertThat(ticks.at("/processes/0/withSchedulesCpuPercent").asDouble()).isEqualTo(9.5);
        assertThat(ticks.path("deletedOrPaused").asInt()).isEqualTo(2);
        assertThat(json.at("/workloads/1/correctness/lost").asInt()).isEqualTo(1);
        assertThat(json.at("/workloads/1/submission").isMissingNode()).isTrue();

        String html = HtmlReport.render(run);
        assertThat(html).contains("<h2>Notify</h2>", "<h2>Schedules</h2>",
                "<td>notify</td><td>finish to webhook received</td><td>3</td><td>40.0</td>",
                "<td>schedules</td><td>tick to job stored in the API</td><td>4</td>",
                "<td>scheduler-service</td><td>2.10</td><td>9.50</td>",
                "<td colspan=\"11\" class=\"na\">ticks below</td><td>4/5 as expected");

        Path out = folder.resolve("x");
        Bench.write(out, run);
        assertThat(out.resolve("notify-jobs.csv")).exists();
        assertThat(Files.readAllLines(out.resolve("notify-jobs.csv"))).hasSize(4);
        assertThat(out.resolve("schedules-jobs.csv")).as("no submitted job").doesNotExist();
    }

    @Test
    void otherWorkloadsHaveNoFeatureTables() {
        WorkloadResult burst = Fixtures.burst(List.of(Fixtures.completed(JobKind.NOOP, 0, 1, 2)));
        assertThat(FeatureTables.notifyTimes(List.of(burst))).isNull();
        assertThat(FeatureTables.scheduleTimes(List.of(burst))).isNull();
        assertThat(FeatureTables.scheduleUse(List.of(burst))).isNull();
        assertThat(SummaryJson.of(JSON, run(burst)).at("/workloads/0/notify").isMissingNode()).isTrue();
        assertThat(FeatureTables.notifyTimes(List.of(WorkloadResult.unavailable(
                new BenchOptions.Run(Workload.NOTIFY, 16, "notify"), "the platform does not support notifications"))))
                .isNull();
    }
}
