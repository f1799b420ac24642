package dev.jobweaver.e2e;

import static dev.jobweaver.e2e.support.Browser.byTestid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard at {@code /dashboard} in a real (headless) Chromium, against the packaged platform: the overview's
 * counts match the jobs a test submitted; a job found by id and by label shows its detail; a schedule paused and
 * resumed with its buttons (and the API agrees); a workflow run drawn as its graph with its nodes' states; the queues
 * with their live workers, a queue whose jobs wait with no worker marked; a quarantined record replayed and its next
 * copy discarded with their buttons; and at a phone's width (390x844) no page scrolls sideways. Each page's screenshot
 * is in {@code target/screenshots/}.
 */
class DashboardIT extends InBrowser {

    @BeforeEach
    void desktopWidth() {
        browser.phone(false);
    }

    @Test
    void theOverviewCountsTheJobsOfATenant() {
        String tenant = tenant();
        List<UUID> done = api.submitMany(Jobs.ofTenant(Jobs.noop(), tenant), 3, 3);
        UUID failed = api.submitAccepted(Jobs.ofTenant(Jobs.failing("dashboard overview", 0), tenant));
        UUID waiting = api.submitAccepted(Jobs.ofTenant("{\"delayMs\":600000," + Jobs.noop().substring(1), tenant));
        UUID cancelled = api.submitAccepted(Jobs.ofTenant("{\"delayMs\":600000," + Jobs.noop().substring(1), tenant));
        assertThat(api.cancel(cancelled).status()).isEqualTo(202);
        Map<UUID, JsonNode> jobs = api.awaitAll(List.of(done.get(0), done.get(1), done.get(2), failed, cancelled),
                JobWeaverClient::terminal, Duration.ofSeconds(60));
        assertThat(jobs.values()).allSatisfy(j -> assertThat(JobWeaverClient.terminal(j)).isTrue());

        // /dashboard (without the slash) leads to the page
        browser.open("/dashboard", "");
        browser.testid("overview-counts");
        assertThat(browser.driver().getCurrentUrl()).contains("/dashboard/");

        browser.page("#/overview?tenant=" + tenant);
        Map<String, String> expected = Map.of("PENDING", "1", "RUNNING", "0", "COMPLETED", "3", "FAILED", "1",
                "CANCELLED", "1");
        expected.forEach((status, count) -> browser.awaitText(byTestid("count-" + status + "-value"), count));
        // the API says the same as the page
        JsonNode overview = api.get("/api/stats/overview?tenant=" + tenant).body();
        expected.forEach((status, count) -> assertThat(overview.path("counts").path(status).asText())
                .as(status).isEqualTo(count));
        // the charts are drawn: a completed bar in the throughput chart, two lines in the depth chart
        assertThat(browser.testid("chart-throughput").findElements(By.cssSelector("rect[data-series='completed']")))
                .isNotEmpty();
        assertThat(browser.testid("chart-depth").findElements(By.cssSelector("path[data-series]"))).hasSize(2);
        assertThat(browser.error()).isNull();
        browser.screenshot("overview-tenant");
        assertThat(waiting).isNotNull();

        browser.page("#/overview");
        browser.testid("count-COMPLETED-value");
        browser.await(d -> !d.findElement(byTestid("overview-updated")).getText().isBlank());
        browser.screenshot("overview");
    }

    @Test
    void aJobIsFoundByIdAndByLabelAndShowsItsDetail() {
        String team = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        UUID id = api.submitAccepted("{\"labels\":{\"team\":\"" + team + "\"}," + Jobs.noop().substring(1));
        JsonNode job = api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(id);
        assertThat(job.path("status").asText()).isEqualTo("COMPLETED");

        browser.page("#/jobs");
        browser.testid("jobs-id").sendKeys(id.toString());
        browser.testid("jobs-search").click();
        browser.awaitText(byTestid("job-status"), "COMPLETED");
        assertThat(browser.driver().getCurrentUrl()).endsWith("#/jobs/" + id);
        // read inside a wait: the detail is drawn again at every poll, which can leave a found element stale
        assertThat(browser.text(d -> browser.testid("job-trace").getText())).isEqualTo(job.path("traceId").asText());
        assertThat(browser.text(d -> browser.testid("job-trace").getAttribute("href")))
                .isEqualTo("http://localhost:9411/zipkin/traces/" + job.path("traceId").asText());
        assertThat(browser.text(d -> browser.testid("job-payload").getText())).contains("no-op");
        assertThat(browser.text(d -> browser.testid("job-attempt-count").getText())).startsWith("1 ");
        // the attempts endpoint is optional: without it the table stays hidden, and no error is shown
        assertThat(browser.driver().findElement(byTestid("job-attempts")).isDisplayed())
                .isEqualTo(api.get("/api/jobs/" + id + "/attempts").status() == 200);
        assertThat(browser.error()).isNull();
        browser.screenshot("job-detail");

        browser.page("#/jobs");
        browser.testid("jobs-label").sendKeys("team:" + team);
        browser.testid("jobs-search").click();
        List<WebElement> rows = browser.await(d -> {
            List<WebElement> found = d.findElements(byTestid("job-row"));
            return found.size() == 1 ? found : null;
        });
        assertThat(rows.getFirst().getAttribute("data-job-id")).isEqualTo(id.toString());
        browser.screenshot("jobs-by-label");
        browser.click(() -> browser.driver().findElement(byTestid("job-row")).findElement(byTestid("job-link")));
        browser.awaitText(byTestid("job-status"), "COMPLETED");

        // an unknown id: the API's message is on the page
        browser.page("#/jobs/" + UUID.randomUUID());
        browser.await(d -> browser.error() != null && browser.error().contains("no job with id"));
    }

    @Test
    void aScheduleIsPausedAndResumedWithItsButtons() {
        String name = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode created = api.postExpecting("/api/schedules", "{\"name\":\"" + name + "\",\"interval\":\"PT1H\","
                + "\"job\":" + Jobs.noop() + "}", 201);
        String id = created.path("id").asText();
        try {
            browser.page("#/schedules");
            By row = By.cssSelector("[data-testid='schedule-row'][data-schedule-id='" + id + "']");
            browser.await(d -> d.findElements(row).size() == 1);
            browser.awaitText(new By.ByCssSelector("[data-schedule-id='" + id + "'] [data-testid='schedule-state']"),
                    "ACTIVE");
            browser.click(() -> browser.driver().findElement(row).findElement(byTestid("schedule-pause")));
            browser.awaitText(new By.ByCssSelector("[data-schedule-id='" + id + "'] [data-testid='schedule-state']"),
                    "PAUSED");
            JsonNode paused = api.get("/api/schedules/" + id).body();
            assertThat(paused.path("paused").asBoolean()).isTrue();
            assertThat(paused.path("nextRunAt").isNull()).isTrue();
            browser.screenshot("schedules-paused");

            browser.click(() -> browser.driver().findElement(row).findElement(byTestid("schedule-resume")));
            browser.awaitText(new By.ByCssSelector("[data-schedule-id='" + id + "'] [data-testid='schedule-state']"),
                    "ACTIVE");
            JsonNode resumed = api.get("/api/schedules/" + id).body();
            assertThat(resumed.path("paused").asBoolean()).isFalse();
            assertThat(resumed.path("nextRunAt").asText()).isNotBlank();
            assertThat(browser.text(d -> d.findElement(row).findElement(byTestid("schedule-next")).getText()))
                    .isNotEqualTo("—");
            assertThat(browser.error()).isNull();
        } finally {
            api.deletePath("/api/schedules/" + id);
        }
    }

    @Test
    void aWorkflowRunIsDrawnAsItsGraphWithItsNodesStates() {
        String name = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        JsonNode workflow = api.postExpecting("/api/workflows", "{\"name\":\"" + name + "\",\"nodes\":["
                + node("extract", List.of()) + "," + node("left", List.of("extract")) + ","
                + node("right", List.of("extract")) + "," + node("load", List.of("left", "right")) + "]}", 201);
        String workflowId = workflow.path("id").asText();
        String runId = api.postExpecting("/api/workflows/" + workflowId + "/runs", "{\"input\":{\"day\":1}}", 202)
                .path("runId").asText();

        browser.page("#/workflows");
        By link = By.cssSelector("[data-workflow-id='" + workflowId + "'] [data-testid='workflow-link']");
        browser.await(d -> d.findElements(link).size() == 1);
        browser.click(() -> browser.driver().findElement(link));
        By run = By.cssSelector("[data-run-id='" + runId + "'] [data-testid='run-link']");
        browser.await(d -> d.findElements(run).size() == 1);
        browser.screenshot("workflow-runs");
        browser.click(() -> browser.driver().findElement(run));

        // live: the page follows the run until every node has completed
        browser.await(d -> {
            List<WebElement> nodes = d.findElements(By.cssSelector("[data-testid='graph-node']"));
            return nodes.size() == 4 && nodes.stream().allMatch(n -> "COMPLETED".equals(n.getAttribute("data-status")));
        });
        browser.awaitText(byTestid("run-status"), "COMPLETED");
        Set<String> nodeIds = browser.await(d -> d.findElements(By.cssSelector("[data-testid='graph-node']")).stream()
                .map(n -> n.getAttribute("data-node-id")).collect(Collectors.toSet()));
        assertThat(nodeIds).isEqualTo(Set.of("extract", "left", "right", "load"));
        // layers by dependency depth, top to bottom; one edge per dependency
        assertThat(y("extract")).isLessThan(y("left"));
        assertThat(y("left")).isEqualTo(y("right"));
        assertThat(y("right")).isLessThan(y("load"));
        assertThat(browser.driver().findElements(By.cssSelector("[data-testid='run-graph'] path[data-from]")))
                .hasSize(4);
        assertThat(browser.error()).isNull();
        browser.screenshot("workflow-run-graph");
    }

    @Test
    void theQueuesPageListsEachQueueWithItsWorkersAndMarksOneWhoseJobsWaitWithNoWorker() {
        String queue = "dash-" + UUID.randomUUID().toString().substring(0, 8);
        UUID waiting = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"queue\":\"" + queue + "\","
                + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"nobody serves this queue\"}]}}");
        try {
            browser.page("#/queues");
            By served = By.cssSelector("[data-testid='queue-row'][data-queue='default']");
            By unserved = By.cssSelector("[data-testid='queue-row'][data-queue='" + queue + "']");
            // the standard worker serves the default queue: it is listed with its id and types, and the queue is not
            // marked
            String worker = queue(api.get("/api/queues").body(), "default").path("workers").path(0).path("id").asText();
            assertThat(worker).as("the default queue's first live worker").isNotBlank();
            By listed = By.cssSelector("[data-testid='queue-worker'][data-worker-id='" + worker + "']");
            assertThat(browser.text(d -> d.findElement(served).findElement(listed).getText()))
                    .contains(worker, "SIMULATION", "HTTP");
            browser.await(d -> d.findElement(served).getAttribute("data-no-worker") == null
                    && d.findElement(served).findElements(byTestid("queue-no-worker")).isEmpty());

            // the job's queue has no worker: its row says so, with the job waiting
            browser.await(d -> !d.findElements(unserved).isEmpty()
                    && "1".equals(d.findElement(unserved).findElement(byTestid("queue-pending")).getText()));
            assertThat(browser.text(d -> d.findElement(unserved).findElement(byTestid("queue-no-worker")).getText()))
                    .isEqualTo("no worker");
            assertThat(browser.text(d -> d.findElement(unserved).getAttribute("data-no-worker"))).isEqualTo("true");
            browser.await(d -> d.findElement(unserved).findElements(byTestid("queue-worker")).isEmpty());
            // its oldest pending age is in words, not milliseconds
            assertThat(browser.text(d -> d.findElement(unserved).findElement(byTestid("queue-age")).getText()))
                    .matches("—|< 1 s|[0-9]+ (s|min|h|d)( [0-9]+ (s|min|h))?");
            assertThat(browser.error()).isNull();
            browser.screenshot("queues");
        } finally {
            assertThat(api.cancel(waiting).status()).isEqualTo(202);
        }
    }

    @Test
    void aQuarantinedRecordIsReplayedAndItsNextCopyDiscardedWithTheirButtons() throws Exception {
        // a record the API's dead-letter consumer cannot read: it sets it aside, and the review keeps it
        String key = UUID.randomUUID().toString();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, E2ePlatform.get().stack().kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>("job-dead-letter", key,
                    "{not json".getBytes(StandardCharsets.UTF_8))).get();
        }
        browser.page("#/quarantine?topic=job-dead-letter");
        By row = By.cssSelector("[data-testid='q-row'][data-key='" + key + "']");
        browser.await(d -> d.findElements(row).size() == 1);
        assertThat(browser.text(d -> d.findElement(row).getText())).contains("UNREADABLE", "jobweaver-api");
        browser.screenshot("quarantine");

        // replayed: the record is on job-dead-letter again, where it is refused again as a new copy (another offset)
        browser.click(() -> browser.driver().findElement(row).findElement(byTestid("q-replay")));
        browser.await(d -> d.findElement(byTestid("q-notice")).getText().contains("replayed"));
        browser.await(d -> states(key).contains("REPLAYED") && states(key).contains("KEPT"));
        browser.await(d -> d.findElements(row).size() == 1);

        // the new copy discarded: a first click asks, the second discards
        browser.click(() -> browser.driver().findElement(row).findElement(byTestid("q-discard")));
        browser.click(() -> browser.driver().findElement(row).findElement(byTestid("q-discard")));
        browser.await(d -> d.findElements(row).isEmpty());
        assertThat(states(key)).containsExactlyInAnyOrder("REPLAYED", "DISCARDED");
        assertThat(browser.error()).isNull();
    }

    /** The states of the quarantined copies of job-dead-letter keyed {@code key}, as the API lists them. */
    private static List<String> states(String key) {
        JsonNode page = api.get("/api/quarantine?topic=job-dead-letter&state=KEPT,REPLAYED,DISCARDED&size=100")
                .body();
        List<String> states = new java.util.ArrayList<>();
        page.path("records").forEach(r -> {
            if (key.equals(r.path("key").asText())) {
                states.add(r.path("state").asText());
            }
        });
        return states;
    }

    @Test
    void noPageScrollsSidewaysAtAPhonesWidth() {
        UUID id = api.submitAccepted("{\"labels\":{\"team\":\"phone\"}," + Jobs.noop().substring(1));
        api.awaitAll(List.of(id), JobWeaverClient::terminal, Duration.ofSeconds(60));
        browser.phone(true);
        try {
            Map<String, String> pages = new java.util.LinkedHashMap<>();
            pages.put("overview", "count-COMPLETED-value");
            pages.put("jobs", "jobs-results");
            pages.put("jobs/" + id, "job-status");
            pages.put("queues", "queues-table");
            pages.put("dead-letters", "dl-state");
            pages.put("quarantine", "q-state");
            pages.put("schedules", "schedules-results");
            pages.put("workflows", "workflows-results");
            pages.forEach((hash, ready) -> {
                browser.page("#/" + hash);
                browser.testid(ready);
                E2ePlatform.awaitQuietly(300);
                assertThat(browser.scrollsSideways()).as("#/%s at 390 px: %s", hash, browser.widths()).isFalse();
                browser.screenshot("phone-" + hash.replace('/', '-'));
            });
        } finally {
            browser.phone(false);
        }
    }

    private static double y(String nodeId) {
        return browser.await(d -> Double.parseDouble(d.findElement(By.cssSelector(
                "[data-testid='graph-node'][data-node-id='" + nodeId + "'] rect")).getAttribute("y")));
    }

    private static String node(String id, List<String> dependsOn) {
        return "{\"id\":\"" + id + "\",\"job\":" + Jobs.noop() + ",\"dependsOn\":["
                + dependsOn.stream().map(d -> "\"" + d + "\"").collect(Collectors.joining(",")) + "]}";
    }

    private static JsonNode queue(JsonNode queues, String name) {
        for (JsonNode queue : queues.path("queues")) {
            if (queue.path("name").asText().equals(name)) {
                return queue;
            }
        }
        throw new AssertionError("no queue " + name + " in " + queues);
    }

    private static String tenant() {
        return "dash-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
