package dev.jobweaver.scheduler;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.testing.KafkaAndDbTest;
import dev.jobweaver.scheduler.testing.Readiness;
import dev.jobweaver.testing.JobWeaverTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class ObservabilityTest extends KafkaAndDbTest {

    @Inject
    MeterRegistry registry;

    @Test
    void readinessCoversTheDatabaseAndKafka() {
        Readiness.awaitDatabaseAndKafka();
    }

    @Test
    void theQuarantineCountersOfEveryConsumedTopicAreScrapedBeforeAnyRecordIsQuarantined() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        // No test quarantines a job-completed record for this reason: the counter exists because it was registered.
        for (String topic : new String[] {Topics.JOB_CREATED, Topics.JOB_COMPLETED, Topics.JOB_FAILED,
                Topics.JOB_COMMANDS, Topics.WORKFLOW_RUNS}) {
            assertThat(metrics.lines().filter(line -> line.startsWith("jobweaver_quarantined_total{"))
                    .filter(line -> line.contains("topic=\"" + topic + "\""))
                    .filter(line -> line.contains("reason=\"rejected_by_database\""))).as(topic).hasSize(1);
        }
        assertThat(metrics).doesNotContain("jobweaver_malformed_records_total");
        assertThat(metrics).contains("jobweaver_jobs_cancelled_total", "jobweaver_jobs_deleted_total");
        // The workflow meters are scraped before the first run.
        for (String status : new String[] {"started", "completed", "failed", "cancelled"}) {
            assertThat(metrics.lines().filter(line -> line.startsWith("jobweaver_workflow_runs_total{"))
                    .filter(line -> line.contains("status=\"" + status + "\""))).as(status).hasSize(1);
        }
        assertThat(metrics).contains("jobweaver_workflow_nodes_ready_total",
                "jobweaver_workflow_nodes_results_too_large_total", "jobweaver_workflow_node_jobs_orphaned_total");
    }

    @Test
    void pendingDepthAndDispatchMetricsFollowTheJobs() {
        // Due an hour ago and not dispatched yet (nothing wakes the dispatcher): pending depth counts it. Due in an
        // hour: the delayed gauge counts it.
        UUID waiting = db.pending("{\"steps\":[{\"action\":\"LOG\",\"message\":\"waiting\"}]}", 0, -3600);
        UUID later = db.pending("{\"steps\":[{\"action\":\"LOG\",\"message\":\"later\"}]}", 0, 3600);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> registry.get("jobweaver.jobs.pending").gauge().value() >= 1
                        && registry.get("jobweaver.jobs.delayed").gauge().value() >= 1);

        long dispatchedBefore = registry.get("jobweaver.submit.to.dispatch").timer().count();
        UUID jobId = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, jobId, TestJobs.created(jobId, 0));
        db.awaitJob(jobId, JobStatus.RUNNING, 1);
        // recorded just after the commit that the row shows
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(registry.get("jobweaver.submit.to.dispatch").timer().count()).isGreaterThan(dispatchedBefore));

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("jobweaver_jobs_pending", "jobweaver_jobs_delayed", "jobweaver_jobs_dispatched_total",
                "jobweaver_submit_to_dispatch_seconds_bucket");
    }
}
