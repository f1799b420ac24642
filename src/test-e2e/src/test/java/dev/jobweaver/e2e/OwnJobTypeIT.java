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
 * suite, runs {@code invoice.total} jobs on the {@code billing} queue. Its jobs wait for it before it starts, run on it
 * once it does, and report its handler's results and failures; its queue is its own both ways (the standard worker
 * never gets a billing run, the billing worker never a default one, and a type it does not declare waits on its queue).
 * When a standard worker joins the billing queue, each run still reaches a worker that declares its type.
 */
@HealthyPlatform
class OwnJobTypeIT {

    private static final String INVOICE = """
            {"jobType":"invoice.total","queue":"billing","maxRetries":0,"payload":{"number":"2026-0042",
             "currency":"EUR","taxRate":0.19,"lines":[{"description":"consulting","quantity":3,"unitPrice":120.00},
             {"description":"travel","quantity":1,"unitPrice":45.55}]}}""";

    @Test
    void theExampleWorkersJobsWaitForItThenRunOnItAloneWithTheirResults() {
        JobWeaverClient api = E2ePlatform.api();
        UUID early = api.submitAccepted(INVOICE);
        UUID onTheDefaultQueue = api.submitAccepted(INVOICE.replace("\"queue\":\"billing\",", ""));
        UUID simulationOnBilling = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"queue\":\"billing\","
                + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"no billing worker runs this\"}]}}");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(api.job(early).path("waitingFor")
                .asText()).isEqualTo("a worker for type invoice.total on queue billing"));

        ServiceProcess billingWorker = ExampleWorkers.billing();

        JsonNode done = api.awaitAll(List.of(early), JobWeaverClient::terminal, Duration.ofSeconds(60)).get(early);
        assertThat(done.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.path("queue").asText()).isEqualTo("billing");
        JsonNode result = done.path("result");
        assertThat(result.path("invoice").asText()).isEqualTo("2026-0042");
        assertThat(result.path("net").asText()).isEqualTo("405.55");
        assertThat(result.path("tax").asText()).isEqualTo("77.05");
        assertThat(result.path("gross").asText()).isEqualTo("482.60");
        assertThat(workers(api, early)).containsExactly(ExampleWorkers.BILLING);

        UUID invalid = api.submitAccepted(INVOICE.replace("\"currency\":\"EUR\"", "\"currency\":\"euro\""));
        JsonNode failed = api.awaitAll(List.of(invalid), JobWeaverClient::terminal, Duration.ofSeconds(60))
                .get(invalid);
        assertThat(failed.path("status").asText()).isEqualTo("FAILED");
        assertThat(failed.path("lastError").asText())
                .isEqualTo("INVOICE.INVALID: currency must be three capital letters (ISO 4217), got euro");

        // isolation: a standard job on the default queue still runs on the standard worker, never on the billing one
        UUID standard = api.submitAccepted("{\"jobType\":\"SIMULATION\",\"payload\":{\"steps\":[{\"action\":\"LOG\","
                + "\"message\":\"default queue\"}]}}");
        api.awaitAll(List.of(standard), JobWeaverClient::terminal, Duration.ofSeconds(60));
        assertThat(workers(api, standard)).doesNotContain("billing-worker").isNotEmpty();
        // and what the billing worker does not declare, or a queue it does not serve, keeps waiting, never failing
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (UUID id : List.of(onTheDefaultQueue, simulationOnBilling)) {
                JsonNode job = api.job(id);
                assertThat(job.path("status").asText()).as("job %s", id).isEqualTo("PENDING");
                assertThat(job.path("attempts").asInt()).isZero();
            }
        });
        assertThat(api.job(simulationOnBilling).path("waitingFor").asText())
                .isEqualTo("a worker for type SIMULATION on queue billing");
        assertThat(api.job(onTheDefaultQueue).path("waitingFor").asText())
                .isEqualTo("a worker for type invoice.total on queue default");

        JsonNode billing = queue(api, "billing");
        assertThat(billing.path("workers")).hasSize(1);
        assertThat(billing.path("workers").get(0).path("id").asText()).isEqualTo("billing-worker");
        assertThat(billing.path("workers").get(0).path("types").get(0).asText()).isEqualTo("invoice.total");
        assertThat(billingWorker.isAlive()).isTrue();
        api.cancel(onTheDefaultQueue);

        // A standard worker joins the billing queue: the pool's workers now run different types. The waiting SIMULATION
        // job runs on it, and every run goes to a worker that declares its type (aimed, or handed back and sent again).
        ExampleWorkers.standard("worker-billing", "billing");
        JsonNode simulated = api.awaitAll(List.of(simulationOnBilling), JobWeaverClient::terminal,
                Duration.ofSeconds(60)).get(simulationOnBilling);
        assertThat(simulated.path("status").asText()).isEqualTo("COMPLETED");
        List<UUID> invoices = new ArrayList<>();
        List<UUID> simulations = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            invoices.add(api.submitAccepted(INVOICE));
            simulations.add(api.submitAccepted("{\"jobType\":\"SIMULATION\",\"queue\":\"billing\",\"maxRetries\":0,"
                    + "\"payload\":{\"steps\":[{\"action\":\"LOG\",\"message\":\"mixed pool\"}]}}"));
        }
        List<UUID> all = new ArrayList<>(invoices);
        all.addAll(simulations);
        Map<UUID, JsonNode> ended = api.awaitAll(all, JobWeaverClient::terminal, Duration.ofSeconds(90));
        ended.forEach((id, job) -> assertThat(job.path("status").asText()).as("job %s", id).isEqualTo("COMPLETED"));
        for (UUID id : invoices) {
            assertThat(workers(api, id)).as("invoice %s", id).last().isEqualTo(ExampleWorkers.BILLING);
        }
        for (UUID id : simulations) {
            assertThat(workers(api, id)).as("simulation %s", id).last().isEqualTo("worker-billing");
        }
    }

    private static List<String> workers(JobWeaverClient api, UUID job) {
        List<String> workers = new ArrayList<>();
        api.get("/api/jobs/" + job + "/attempts").body().path("attempts")
                .forEach(a -> workers.add(a.path("workerId").asText()));
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
