package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.ExampleWorkers;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.local.ServiceProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A team's own worker beside the standard one: the example project {@code examples/billing-worker}, built by the test
 * suite, runs {@code invoice.total} jobs, here on a billing queue of the scenario's own. Its jobs wait for it before it
 * starts, run on it once it does, and report its handler's results and failures; its queue is its own both ways (the
 * standard worker never gets a billing run, the billing worker never a default one, and a type it does not declare
 * waits on its queue). When a standard worker joins the billing queue, each run still reaches a worker that declares
 * its type.
 */
@HealthyPlatform
class OwnJobTypeIT {

    private static final String INVOICE = """
            {"jobType":"invoice.total","queue":"QUEUE","maxRetries":0,"payload":{"number":"2026-0042",
             "currency":"EUR","taxRate":0.19,"lines":[{"description":"consulting","quantity":3,"unitPrice":120.00},
             {"description":"travel","quantity":1,"unitPrice":45.55}]}}""";

    @Test
    void theExampleWorkersJobsWaitForItThenRunOnItAloneWithTheirResults() {
        JobWeaverClient api = E2ePlatform.api();
        // a queue of this scenario's own, and an instance of the example worker for it alone: whatever ran before,
        // nothing serves the queue until this scenario starts the worker
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String queue = "billing-" + suffix;
        String workerName = "billing-worker-" + suffix;
        String invoice = INVOICE.replace("QUEUE", queue);
        UUID early = api.submitAccepted(invoice);
        UUID onTheDefaultQueue = api.submitAccepted(invoice.replace("\"queue\":\"" + queue + "\",", ""));
        UUID simulationOnBilling = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"queue\":\"" + queue + "\","
                + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"no billing worker runs this\"}]}}");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(api.job(early).path("waitingFor")
                .asText()).isEqualTo("a worker for type invoice.total on queue " + queue));

        ServiceProcess billingWorker = ExampleWorkers.billing(workerName, List.of(queue));

        JsonNode done = api.awaitAll(List.of(early), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(early);
        assertThat(done.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.path("queue").asText()).isEqualTo(queue);
        JsonNode result = done.path("result");
        assertThat(result.path("invoice").asText()).isEqualTo("2026-0042");
        assertThat(result.path("net").asText()).isEqualTo("405.55");
        assertThat(result.path("tax").asText()).isEqualTo("77.05");
        assertThat(result.path("gross").asText()).isEqualTo("482.60");
        assertThat(workers(api, early)).containsExactly(workerName);

        UUID invalid = api.submitAccepted(invoice.replace("\"currency\":\"EUR\"", "\"currency\":\"euro\""));
        JsonNode failed = api.awaitAll(List.of(invalid), JobWeaverClient::terminal, Duration.ofSeconds(60))
                .get(invalid);
        assertThat(failed.path("status").asText()).isEqualTo("FAILED");
        assertThat(failed.path("lastError").asText())
                .isEqualTo("INVOICE.INVALID: currency must be three capital letters (ISO 4217), got euro");

        // isolation: a standard job on the default queue still runs on the standard worker, never on the billing one
        UUID standard = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
                + "\"message\":\"default queue\"}]}}");
        api.awaitAll(List.of(standard), JobWeaverClient::terminal, Duration.ofSeconds(60));
        assertThat(workers(api, standard)).doesNotContain(workerName).isNotEmpty();
        // and what the billing worker does not declare, or a queue it does not serve, keeps waiting, never failing
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (UUID id : List.of(onTheDefaultQueue, simulationOnBilling)) {
                JsonNode job = api.job(id);
                assertThat(job.path("status").asText()).as("job %s", id).isEqualTo("PENDING");
                assertThat(job.path("attempts").asInt()).isZero();
            }
        });
        assertThat(api.job(simulationOnBilling).path("waitingFor").asText())
                .isEqualTo("a worker for type SIMULATION on queue " + queue);
        assertThat(api.job(onTheDefaultQueue).path("waitingFor").asText())
                .isEqualTo("a worker for type invoice.total on queue default");

        JsonNode billing = queue(api, queue);
        assertThat(billing.path("workers")).hasSize(1);
        assertThat(billing.path("workers").get(0).path("id").asText()).isEqualTo(workerName);
        assertThat(billing.path("workers").get(0).path("types").get(0).asText()).isEqualTo("invoice.total");
        assertThat(billingWorker.isAlive()).isTrue();
        api.cancel(onTheDefaultQueue);

        // A standard worker joins the billing queue: the pool's workers now run different types. The waiting SIMULATION
        // job runs on it, and every run goes to a worker that declares its type (aimed, or handed back and sent again).
        String standardName = "worker-" + queue;
        ExampleWorkers.standard(standardName, queue);
        JsonNode simulated = api.awaitAll(List.of(simulationOnBilling), JobWeaverClient::terminal,
                Duration.ofSeconds(60)).get(simulationOnBilling);
        assertThat(simulated.path("status").asText()).isEqualTo("COMPLETED");
        List<UUID> invoices = new ArrayList<>();
        List<UUID> simulations = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            invoices.add(api.submitAccepted(invoice));
            simulations.add(api.submitAccepted("{\"jobType\":\"SIMULATION\",\"queue\":\"" + queue + "\",\"maxRetries\":0,"
                    + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"mixed pool\"}]}}"));
        }
        List<UUID> all = new ArrayList<>(invoices);
        all.addAll(simulations);
        Map<UUID, JsonNode> ended = api.awaitAll(all, JobWeaverClient::terminal, Duration.ofSeconds(90));
        ended.forEach((id, job) -> assertThat(job.path("status").asText()).as("job %s", id).isEqualTo("COMPLETED"));
        for (UUID id : invoices) {
            assertThat(workers(api, id)).as("invoice %s", id).last().isEqualTo(workerName);
        }
        for (UUID id : simulations) {
            assertThat(workers(api, id)).as("simulation %s", id).last().isEqualTo(standardName);
        }
    }

    /**
     * The workers of {@code job}'s attempts, once the last one names its worker: an attempt's worker comes with its
     * outcome ({@code job-completed}, {@code job-failed}), read apart from the status that made the job terminal, so
     * a finished job's last attempt may still be {@code UNREPORTED} for a moment.
     */
    private static List<String> workers(JobWeaverClient api, UUID job) {
        List<String> workers = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            workers.clear();
            api.get("/api/jobs/" + job + "/attempts").body().path("attempts")
                    .forEach(a -> workers.add(a.path("workerId").asText()));
            assertThat(workers).as("the workers of job " + job + "'s attempts").isNotEmpty().last().isNotEqualTo("");
        });
        return workers;
    }

    private static JsonNode queue(JobWeaverClient api, String name) {
        JsonNode queues = api.get("/api/queues").body().path("queues");
        for (JsonNode queue : queues) {
            if (queue.path("name").asText().equals(name)) {
                return queue;
            }
        }
        throw new AssertionError("no queue " + name + " in GET /api/queues: " + queues);
    }
}
