package dev.jobweaver.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ChaosReportTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final ChaosRun.Settings SETTINGS = new ChaosRun.Settings(Duration.ofMinutes(2), 50,
            Duration.ofSeconds(20), 7);

    private final List<Submitted> submissions = new ArrayList<>();
    private final Map<UUID, JobState> states = new HashMap<>();

    /** An accepted job sent {@code sentAt} s into the run, accepted then, first started {@code wait} s later. */
    private UUID accepted(double sentAt, String status, int runs, Double wait) {
        UUID id = UUID.randomUUID();
        Instant at = T0.plusMillis(Math.round(sentAt * 1000));
        submissions.add(new Submitted(at, 202, id, null));
        if (status != null) {
            states.put(id, new JobState(status, at, status.equals("PENDING") ? "PENDING" : status, runs,
                    wait == null ? null : at.plusMillis(Math.round(wait * 1000))));
        }
        return id;
    }

    private void refused(int status, int times) {
        for (int i = 0; i < times; i++) {
            submissions.add(new Submitted(T0, status, null, "no"));
        }
    }

    private ChaosReport report(Duration settledAfter) {
        return ChaosReport.of(SETTINGS, T0, submissions, states, List.of(
                new Kill(Target.WORKER, "worker-service", 11, 20, 4.2),
                new Kill(Target.KAFKA, "kafka", 12, 40, 6.5),
                new Kill(Target.API, "api-service", 13, 60, 9.1)), settledAfter);
    }

    @Test
    void countsEveryAnswerAndEveryEnd() {
        accepted(1, "COMPLETED", 1, 0.05);
        accepted(2, "COMPLETED", 2, 0.5);
        accepted(3, "FAILED", 4, 0.1);
        accepted(4, "COMPLETED", 1, 0.2);
        refused(503, 3);
        refused(0, 2);
        refused(500, 1);
        refused(Submitted.NOT_SENT, 4);

        ChaosReport report = report(Duration.ofSeconds(12));

        assertThat(report.sent()).isEqualTo(14);
        assertThat(report.accepted()).isEqualTo(4);
        assertThat(report.refused()).isEqualTo(10);
        assertThat(report.unavailable()).isEqualTo(3);
        assertThat(report.noAnswer()).isEqualTo(2);
        assertThat(report.otherStatus()).isEqualTo(1);
        assertThat(report.notSent()).isEqualTo(4);
        assertThat(report.completed()).isEqualTo(3);
        assertThat(report.failed()).isEqualTo(1);
        assertThat(report.rejected()).isZero();
        assertThat(report.lost()).isZero();
        assertThat(report.passed()).isTrue();
        assertThat(report.exitCode()).isZero();
        assertThat(report.duplicated()).as("started twice, and four times").isEqualTo(2);
        assertThat(report.mostRuns()).isEqualTo(4);
        assertThat(report.firstRefusals()).containsOnlyKeys("status 503", "no answer", "status 500", "not sent")
                .containsEntry("status 500", "at 0.0 s: no");
        assertThat(report.summary()).as("only a status other than 503 is shown: it is a bug")
                .contains("                first status 500 at 0.0 s: no")
                .noneMatch(line -> line.contains("first status 503"));
    }

    @Test
    void aJobNotEndedOrUnknownIsLostAndFailsTheRun() {
        accepted(1, "COMPLETED", 1, 0.1);
        UUID pending = accepted(2, "PENDING", 0, null);
        UUID running = accepted(3, "RUNNING", 1, 0.3);
        UUID unknown = accepted(4, null, 0, null);
        UUID rejected = accepted(5, "REJECTED", 0, null);

        ChaosReport report = report(null);

        assertThat(report.lostJobs()).containsExactlyInAnyOrder(pending, running, unknown);
        assertThat(report.lost()).isEqualTo(3);
        assertThat(report.lostByState()).containsOnly(
                Map.entry("API PENDING, scheduler PENDING", 1),
                Map.entry("API RUNNING, scheduler RUNNING", 1),
                Map.entry("unknown to the API", 1));
        assertThat(report.rejected()).as("terminal, so not lost, but reported").isEqualTo(1);
        assertThat(report.completed()).isEqualTo(1);
        assertThat(report.passed()).isFalse();
        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.summary()).anySatisfy(line -> assertThat(line).startsWith("  lost          3"))
                .anySatisfy(line -> assertThat(line).contains("REJECTED after a 202"))
                .anySatisfy(line -> assertThat(line).contains(pending.toString()))
                .anySatisfy(line -> assertThat(line).startsWith("  settled       NO: 3 accepted job(s)"))
                .last().isEqualTo("FAILED: 3 accepted job(s) lost");
        assertThat(unknown).isNotNull();
        assertThat(rejected).isNotNull();
    }

    @Test
    void theLongestWaitIsFromAcceptanceToTheFirstStart() {
        accepted(1, "COMPLETED", 1, 0.05);
        UUID slow = accepted(61.5, "COMPLETED", 2, 14.2);
        accepted(70, "COMPLETED", 1, 3.0);
        accepted(80, "FAILED", 0, null); // never started: no wait

        ChaosReport report = report(Duration.ofSeconds(3));

        assertThat(report.longestWait()).isEqualTo(Duration.ofMillis(14_200));
        assertThat(report.longestWaitJob()).isEqualTo(slow);
        assertThat(report.longestWaitSentAt()).isEqualTo(61.5);
        assertThat(report.p99Wait()).isEqualTo(Duration.ofMillis(14_200));
        assertThat(report.summary()).anySatisfy(line -> assertThat(line)
                .isEqualTo("  longest wait  14.2 s from acceptance to first start (job " + slow
                        + ", sent at 62 s); p99 14.2 s"));
    }

    @Test
    void noStartedJobMeansNoWait() {
        refused(503, 5);
        ChaosReport report = report(Duration.ZERO);
        assertThat(report.longestWait()).isNull();
        assertThat(report.p99Wait()).isNull();
        assertThat(report.accepted()).isZero();
        assertThat(report.passed()).isTrue();
        assertThat(report.summary()).contains("  longest wait  - (no job started)");
    }

    @Test
    void percentileIsNearestRank() {
        List<Duration> hundred = new ArrayList<>();
        for (int i = 100; i >= 1; i--) {
            hundred.add(Duration.ofMillis(i));
        }
        assertThat(ChaosReport.percentile(hundred, 0.99)).isEqualTo(Duration.ofMillis(99));
        assertThat(ChaosReport.percentile(hundred, 1.0)).isEqualTo(Duration.ofMillis(100));
        assertThat(ChaosReport.percentile(List.of(Duration.ofSeconds(3)), 0.99)).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void killsAreCountedPerTargetAndTheSlowestReturnIsNamed() {
        ChaosReport report = report(Duration.ofSeconds(1));
        assertThat(report.killsPerTarget()).containsEntry(Target.WORKER, 1).containsEntry(Target.KAFKA, 1)
                .containsEntry(Target.API, 1).containsEntry(Target.SCHEDULER, 0).containsEntry(Target.POSTGRES, 0);
        assertThat(report.summary().get(1)).isEqualTo("  kills         3 (api 1, scheduler 0, worker 1, kafka 1,"
                + " postgres 0); all back, the slowest 9.1 s after its kill (api-service at 60 s)");
        assertThat(report.summary().getFirst()).isEqualTo("Chaos run: 2m at 50 jobs/s, a kill every 20s (seed 7)");
    }

    @Test
    void theJsonHoldsEveryFigure() throws Exception {
        accepted(1, "COMPLETED", 2, 0.5);
        UUID lost = accepted(2, "PENDING", 0, null);
        refused(503, 2);
        JsonNode json = new ObjectMapper().readTree(report(null).toJson());
        assertThat(json.path("passed").asBoolean()).isFalse();
        assertThat(json.path("settings").path("seed").asLong()).isEqualTo(7);
        assertThat(json.path("settings").path("rate").asDouble()).isEqualTo(50);
        JsonNode jobs = json.path("jobs");
        assertThat(jobs.path("submitted").asInt()).isEqualTo(4);
        assertThat(jobs.path("accepted").asInt()).isEqualTo(2);
        assertThat(jobs.path("refusedBy").path("status503").asInt()).isEqualTo(2);
        assertThat(jobs.path("completed").asInt()).isEqualTo(1);
        assertThat(jobs.path("lost").asInt()).isEqualTo(1);
        assertThat(jobs.path("lostJobs").get(0).asText()).isEqualTo(lost.toString());
        assertThat(jobs.path("duplicated").asInt()).isEqualTo(1);
        assertThat(jobs.path("longestWaitMs").asLong()).isEqualTo(500);
        assertThat(jobs.has("settledAfterMs")).isFalse();
        assertThat(json.path("kills")).hasSize(3);
        assertThat(json.path("kills").get(1).path("target").asText()).isEqualTo("kafka");
        assertThat(json.path("kills").get(1).path("backAfterSeconds").asDouble()).isEqualTo(6.5);
    }

    @Test
    void durationsReadAsTheyAreWritten() {
        assertThat(ChaosReport.human(Duration.ofMinutes(10))).isEqualTo("10m");
        assertThat(ChaosReport.human(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(ChaosReport.human(Duration.ofSeconds(90))).isEqualTo("1m 30s");
        assertThat(ChaosReport.human(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }
}
