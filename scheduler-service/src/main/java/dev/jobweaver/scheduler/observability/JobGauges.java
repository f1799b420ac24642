package dev.jobweaver.scheduler.observability;

import dev.jobweaver.scheduler.job.store.JobReads;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Refreshes the job gauges from the database (a gauge must not query on scrape): pending depth (jobs due and waiting)
 * and running often, the backlog by priority and tenant a little less often, jobs waiting for a later start rarely,
 * since counting them reads each one. Each refresh is one non-blocking query on the event loop.
 */
@ApplicationScoped
public class JobGauges {

    private static final Logger LOG = Logger.getLogger(JobGauges.class);

    @Inject JobReads reads;
    @Inject SchedulerMetrics metrics;
    @Inject BacklogGauges backlog;

    @Scheduled(every = "${jobweaver.scheduler.metrics.refresh-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        return GaugeRefresh.of(reads.countActive(), counts -> metrics.activeJobs(counts[0], counts[1]), LOG,
                "job gauges");
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.backlog-refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshBacklog() {
        return GaugeRefresh.of(reads.backlog(), backlog::update, LOG, "backlog gauges");
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.delayed-refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshDelayed() {
        return GaugeRefresh.of(reads.countDelayed(), metrics::delayedJobs, LOG, "delayed-jobs gauge");
    }
}
