package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.scheduler.observability.ScheduleMetrics;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Refreshes the gauge of active schedule timers from the database (a gauge must not query on scrape). */
@ApplicationScoped
public class ScheduleGauges {

    private static final Logger LOG = Logger.getLogger(ScheduleGauges.class);

    private final ScheduleTimerRepository repository;
    private final ScheduleMetrics metrics;

    public ScheduleGauges(ScheduleTimerRepository repository, ScheduleMetrics metrics) {
        this.repository = repository;
        this.metrics = metrics;
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        return repository.countActive()
                .invoke(metrics::activeTimers)
                .onFailure().invoke(e -> LOG.debugf("could not refresh the schedule timers gauge: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
