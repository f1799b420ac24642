package dev.jobweaver.bench.chaos;

import java.time.Instant;

/**
 * What the platform's databases say about one accepted job at the end of a chaos run.
 *
 * @param apiStatus its status in the API's {@code jobs} table (what a client is told), or null when the API has no
 *                  such job
 * @param acceptedAt when the API accepted it ({@code jobs.created_at}), or null when unknown
 * @param schedulerStatus its status in the scheduler's {@code job_executions}, or null when the scheduler never took
 *                        it in
 * @param runs how many times a worker started it ({@code execution_attempts} rows)
 * @param firstStart when a worker first started it, or null when none did
 */
public record JobState(String apiStatus, Instant acceptedAt, String schedulerStatus, int runs, Instant firstStart) {

    /** The API's statuses after which a job never changes again. */
    public static final java.util.Set<String> TERMINAL = java.util.Set.of("COMPLETED", "FAILED", "REJECTED");

    /** Whether the API reports the job as ended. */
    public boolean terminal() {
        return apiStatus != null && TERMINAL.contains(apiStatus);
    }
}
