package dev.jobweaver.api.queue;

import dev.jobweaver.api.platform.http.RestSupport;
import dev.jobweaver.api.security.Callers;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.worker.WorkerStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/queues}: each queue's depth, its oldest waiting job's age and its live workers, from the jobs read model
 * and the workers' heartbeats ({@link WorkerHeartbeatConsumer}).
 */
@Path("/api/queues")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "queues")
public class QueueResource {

    @Inject QueueStore queues;
    @Inject Pool pool;
    @Inject RestSupport rest;
    @Inject Callers callers;

    @GET
    @RolesAllowed(Roles.VIEWER)
    @Operation(summary = "Queues, their depth and their workers", description = "Every queue that has unfinished jobs"
            + " or a live worker (default always): its pending and running jobs, how long its oldest due pending job"
            + " has waited, and the live workers that serve it, with the job types each runs. The counts are of the"
            + " caller's own tenant's jobs (an admin's: every tenant's, or the one named); the workers are the"
            + " platform's.")
    @APIResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = QueuesView.class)))
    public Uni<QueuesView> list(
            @Parameter(description = "only this tenant's jobs; without it the caller's own tenant's, an admin's every"
                    + " tenant's; another tenant than the caller's own is 403 API.TENANT_FORBIDDEN",
                    schema = @Schema(type = SchemaType.STRING, pattern = "[a-z0-9][a-z0-9-]{0,62}"))
            @QueryParam("tenant") String tenant) {
        String owner = callers.current().filterTenant(rest.tenant(tenant));
        Instant now = Instant.now();
        return queues.depths(now, owner)
                .chain(depths -> new WorkerStore(pool).live(now).map(workers -> view(now, depths, workers)));
    }

    /** The queues of {@code depths} and of {@code workers}, by name, {@code default} among them. */
    static QueuesView view(Instant now, Map<String, QueueStore.Depth> depths, List<WorkerStore.LiveWorker> workers) {
        Map<String, List<QueuesView.WorkerView>> served = new TreeMap<>();
        served.put(JobControl.DEFAULT_QUEUE, new ArrayList<>());
        depths.keySet().forEach(queue -> served.putIfAbsent(queue, new ArrayList<>()));
        for (WorkerStore.LiveWorker worker : workers) {
            for (String queue : worker.queues()) {
                served.computeIfAbsent(queue, q -> new ArrayList<>()).add(new QueuesView.WorkerView(worker.id(),
                        worker.types(), worker.capacity(), worker.lastSeenAt()));
            }
        }
        List<QueuesView.QueueView> out = new ArrayList<>(served.size());
        served.forEach((queue, queueWorkers) -> {
            QueueStore.Depth depth = depths.getOrDefault(queue, new QueueStore.Depth(0, 0, null));
            long age = depth.oldestDue() == null ? 0 : Math.max(0, Duration.between(depth.oldestDue(), now).toMillis());
            out.add(new QueuesView.QueueView(queue, depth.pending(), depth.running(), age, List.copyOf(queueWorkers)));
        });
        return new QueuesView(out);
    }
}
