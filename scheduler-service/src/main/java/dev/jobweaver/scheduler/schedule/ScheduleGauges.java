package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.scheduler.observability.GaugeRefresh;
import dev.jobweaver.scheduler.observability.ScheduleMetrics;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/** Refreshes the gauge of active schedule timers from the database (a gauge must not query on scrape). */
@ApplicationScoped
public class ScheduleGauges {

    private static final Logger LOG = Logger.getLogger(ScheduleGauges.class);

    @Inject ScheduleTimerRepository repository;
    @Inject ScheduleMetrics metrics;

    @Scheduled(every = "${jobweaver.scheduler.metrics.refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        return GaugeRefresh.of(repository.countActive(), metrics::activeTimers, LOG, "schedule timers gauge");
    }
}
