package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** A platform that refuses a job-control field makes its workload unavailable after one request, saying why. */
class JobControlProbeTest {

    @AutoClose
    private StubApi api;
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    /** A runner against an API answering every submission {@code status} with {@code body}; no database. */
    private WorkloadRunner runner(int status, String body, String... args) throws IOException {
        api = StubApi.serving("/api/jobs", (exchange, request) -> StubApi.answer(exchange, status, body));
        return api.runner(List.of(args), console);
    }

    @Test
    void prioritiesAreUnavailableWhenTheApiRejectsThePriorityField() throws IOException {
        WorkloadRunner runner = runner(400, "{\"errorCode\":\"API.INVALID_JOB_REQUEST\",\"message\":"
                + "\"Unrecognized field priority\"}", "priorities");
        StubApi.assertUnavailable(runner.run(new BenchOptions.Run(Workload.PRIORITIES, 64, "priorities")))
                .startsWith("the API rejects \"priority\" (400: {\"errorCode\":\"API.INVALID_JOB_REQUEST\",\"message\":"
                        + "\"Unrecognized field priority\"}); the platform does not support it yet");
        assertThat(api.requests).hasSize(1);
        assertThat(console.toString()).contains("priorities: probing \"priority\" (one no-op job)...");
    }

    @Test
    void delayedIsUnavailableWhenTheApiRejectsDelayMs() throws IOException {
        WorkloadRunner runner = runner(400, "{\"message\":\"delayMs is unknown\"}", "delayed");
        StubApi.assertUnavailable(runner.run(new BenchOptions.Run(Workload.DELAYED, 0, "delayed")))
                .startsWith("the API rejects \"delayMs\" (400: ");
        assertThat(api.requests).hasSize(1);
    }

    @Test
    void anotherRefusalIsReportedWithItsStatus() throws IOException {
        WorkloadRunner runner = runner(503, "{\"errorCode\":\"API.OVERLOADED\"}", "priorities");
        assertThat(runner.probeControl("priorities", "\"priority\"", Control.of(Priority.HIGH)))
                .isEqualTo("the probe job with \"priority\" was not accepted: 503 {\"errorCode\":\"API.OVERLOADED\"}");
    }
}
