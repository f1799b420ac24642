package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * The cancel request the bench sends, and a platform without cancel making the workload unavailable after one job and
 * one cancel, saying why; an unknown job's 404 is no such platform.
 */
class CancelProbeTest {

    private static final UUID JOB = UUID.fromString("6f1c1a52-3c55-4d4e-9f0e-2d5f7b9a0c11");

    @AutoClose
    private StubApi api;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    /**
     * An API accepting every job as {@link #JOB} and answering every cancel {@code status} with {@code body}; no
     * database.
     */
    private WorkloadRunner runner(int status, String body) throws IOException {
        api = StubApi.serving("/api/jobs", (exchange, request) -> {
            boolean cancel = exchange.getRequestURI().getPath().endsWith("/cancel");
            StubApi.answer(exchange, cancel ? status : 202, cancel ? body : "{\"jobId\":\"" + JOB + "\"}");
        });
        return api.runner(List.of("cancel"), console);
    }

    @Test
    void aCancelIsAPostToTheJobsCancelPathWithoutABody() throws IOException {
        runner(202, "{\"id\":\"" + JOB + "\",\"status\":\"PENDING\"}");
        ApiClient.Answer answer = api.client().cancel(JOB).join();
        assertThat(answer.status()).isEqualTo(202);
        assertThat(answer.jobId()).as("the job's field is id, not jobId: the id asked for").isEqualTo(JOB);
        assertThat(answer.accepted()).isTrue();
        assertThat(api.requests).containsExactly("POST /api/jobs/" + JOB + "/cancel ");
    }

    @Test
    void aRefusedCancelHasNoJobId() throws IOException {
        runner(409, "{\"errorCode\":\"API.JOB_NOT_CANCELLABLE\"}");
        ApiClient.Answer answer = api.client().cancel(JOB).join();
        assertThat(answer.status()).isEqualTo(409);
        assertThat(answer.jobId()).isNull();
        assertThat(answer.body()).isEqualTo("{\"errorCode\":\"API.JOB_NOT_CANCELLABLE\"}");
    }

    @Test
    void cancelIsUnavailableWhenTheApiHasNoCancelPath() throws IOException {
        WorkloadRunner runner = runner(404, "");
        StubApi.assertUnavailable(runner.run(new BenchOptions.Run(Workload.CANCEL, 16, "cancel")))
                .isEqualTo("the API answers 404 to POST /api/jobs/{id}/cancel (); the platform does not support "
                        + "cancel");
        assertThat(api.requests).hasSize(2);
        assertThat(api.requests.get(0)).startsWith("POST /api/jobs ").contains("\"delayMs\":60000");
        assertThat(api.requests.get(1)).isEqualTo("POST /api/jobs/" + JOB + "/cancel ");
        assertThat(console.toString()).contains("cancel: probing POST /api/jobs/{id}/cancel (one waiting job)...");
    }

    @Test
    void cancelIsUnavailableWhenTheApiDoesNotAllowThePost() throws IOException {
        WorkloadRunner runner = runner(405, "Method Not Allowed");
        assertThat(runner.probeCancel("cancel")).isEqualTo("the API answers 405 to POST /api/jobs/{id}/cancel "
                + "(Method Not Allowed); the platform does not support cancel");
    }

    @Test
    void theApisOwnNotFoundIsAFailedProbeNotAMissingFeature() throws IOException {
        WorkloadRunner runner = runner(404, "{\"errorCode\":\"API.JOB_NOT_FOUND\"}");
        assertThat(runner.probeCancel("cancel")).isEqualTo("the probe job's cancel was answered 404 "
                + "{\"errorCode\":\"API.JOB_NOT_FOUND\"}, not 202");
    }
}
