package dev.jobweaver.api.queue;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * {@code GET /api/queues}: every queue that has unfinished jobs or a live worker, by name.
 *
 * @param queues the queues, {@code default} always among them
 */
@RegisterForReflection
public record QueuesView(List<QueueView> queues) {

    /**
     * One queue.
     *
     * @param pending its jobs waiting to run (due or not)
     * @param running its jobs running
     * @param oldestPendingAgeMs how long its oldest due pending job has waited since it became due; 0 when none waits
     * @param workers the live workers that serve it
     */
    @RegisterForReflection
    public record QueueView(String name, long pending, long running, long oldestPendingAgeMs,
                            List<WorkerView> workers) {
    }

    /**
     * A live worker of a queue.
     *
     * @param types the job types it runs
     * @param capacity the runs it takes at once
     * @param lastSeenAt when it sent its latest heartbeat
     */
    @RegisterForReflection
    public record WorkerView(String id, List<String> types, int capacity,
                             @Schema(format = "date-time") Instant lastSeenAt) {
    }
}
