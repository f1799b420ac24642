package dev.jobweaver.worker.offsets;

import dev.jobweaver.worker.WorkerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness detail of the out-of-order commit strategy: per partition the committed offset, what is in flight and
 * the offsets stuck in flight longer than the threshold. A stuck offset is reported; it turns the check DOWN only
 * when {@code jobweaver.worker.offsets.stuck-marks-unready} is set, since a long job is not a broken worker.
 */
@Readiness
@ApplicationScoped
class OffsetCommitHealthCheck implements HealthCheck {

    @Inject OutOfOrderCommitHandlerFactory handlers;
    @Inject WorkerConfig config;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder builder = HealthCheckResponse.named("worker-offset-commits");
        int stuckCount = 0;
        for (OutOfOrderCommitHandler handler : handlers.handlers()) {
            for (OutOfOrderCommitHandler.PartitionReport r : handler.report()) {
                stuckCount += r.stuck().size();
                String key = r.topic() + "-" + r.partition();
                builder.withData(key, "committed=" + r.committedOffset() + " position=" + r.commitPosition()
                        + " inFlight=" + r.inFlight() + " completedAbove=" + r.completedAbove()
                        + " uncommittedLag=" + r.uncommittedLag()
                        + (r.stuck().isEmpty() ? "" : " stuck=" + r.stuck().stream()
                                .map(s -> s.offset() + "(" + s.ageMillis() + "ms)").toList())
                        + (r.deliveryStalled() ? " deliveryStalled=true" : ""));
            }
        }
        builder.withData("stuckOffsets", stuckCount);
        builder.withData("stuckThreshold", config.offsets().stuckThreshold().toString());
        return builder.status(stuckCount == 0 || !config.offsets().stuckMarksUnready()).build();
    }
}
