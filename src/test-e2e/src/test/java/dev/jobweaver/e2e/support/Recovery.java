package dev.jobweaver.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * How a fault scenario ends: every job it counts on is read back COMPLETED, and how long that took after the fault.
 *
 * @param jobs each job's last read, by id
 * @param seconds from the fault's moment to the last job seen terminal
 */
public record Recovery(Map<UUID, JsonNode> jobs, double seconds) {

    /**
     * Waits up to {@code timeout} for every job of {@code ids} to end and asserts that each ended COMPLETED.
     *
     * @param since {@link System#nanoTime} of the fault (a kill, a restart) that {@link #seconds} counts from
     */
    public static Recovery allCompleted(JobWeaverClient api, List<UUID> ids, Duration timeout, long since) {
        Map<UUID, JsonNode> jobs = api.awaitAll(ids, JobWeaverClient::terminal, timeout);
        double seconds = (System.nanoTime() - since) / 1e9;
        assertThat(jobs).hasSize(ids.size());
        assertThat(jobs.values()).allSatisfy(j -> assertThat(j.path("status").asText()).isEqualTo("COMPLETED"));
        return new Recovery(jobs, seconds);
    }
}
