package dev.jobweaver.scheduler.observability;

import dev.jobweaver.scheduler.job.store.JobReads;
import dev.jobweaver.scheduler.worker.WorkerPool;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Refreshes the job gauges from the database (a gauge must not query on scrape): pending depth (jobs due and waiting)
 * and running often, the backlog by priority and tenant and by queue a little less often, jobs waiting for a later
 * start rarely, since counting them reads each one. Each query is non-blocking, on the event loop.
 */
@ApplicationScoped
public class JobGauges {

    private static final Logger LOG = Logger.getLogger(JobGauges.class);

    @Inject JobReads reads;
    @Inject SchedulerMetrics metrics;
    @Inject BacklogGauges backlog;
    @Inject QueueGauges queues;
    @Inject WorkerPool workers;

    @Scheduled(every = "${jobweaver.scheduler.metrics.refresh-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        return GaugeRefresh.of(reads.countActive(), counts -> metrics.activeJobs(counts[0], counts[1]), LOG,
                "job gauges");
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.backlog-refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshBacklog() {
        // the queues' workers are this replica's last read (WorkerPool reads them every second): no query of its own
        return GaugeRefresh.of(reads.backlog(), backlog::update, LOG, "backlog gauges")
                .chain(() -> GaugeRefresh.of(reads.queueBacklog(), rows -> queues.update(rows, workers.live()), LOG,
                        "queue gauges"));
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.delayed-refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshDelayed() {
        return GaugeRefresh.of(reads.countDelayed(), metrics::delayedJobs, LOG, "delayed-jobs gauge");
    }
}
