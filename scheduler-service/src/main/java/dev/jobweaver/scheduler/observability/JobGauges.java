package dev.jobweaver.scheduler.observability;

import dev.jobweaver.scheduler.job.store.JobReads;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Refreshes the job gauges from the database (a gauge must not query on scrape): pending depth (jobs due and waiting)
 * and running often, the backlog by priority and tenant a little less often, jobs waiting for a later start rarely,
 * since counting them reads each one. Each refresh is one non-blocking query on the event loop.
 */
@ApplicationScoped
public class JobGauges {

    private static final Logger LOG = Logger.getLogger(JobGauges.class);

    private final JobReads reads;
    private final SchedulerMetrics metrics;
    private final BacklogGauges backlog;

    public JobGauges(JobReads reads, SchedulerMetrics metrics, BacklogGauges backlog) {
        this.reads = reads;
        this.metrics = metrics;
        this.backlog = backlog;
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.refresh-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        return reads.countActive()
                .invoke(counts -> metrics.activeJobs(counts[0], counts[1]))
                .onFailure().invoke(e -> LOG.debugf("could not refresh the job gauges: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.backlog-refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshBacklog() {
        return reads.backlog()
                .invoke(backlog::update)
                .onFailure().invoke(e -> LOG.debugf("could not refresh the backlog gauges: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    @Scheduled(every = "${jobweaver.scheduler.metrics.delayed-refresh-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP, skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refreshDelayed() {
        return reads.countDelayed()
                .invoke(metrics::delayedJobs)
                .onFailure().invoke(e -> LOG.debugf("could not refresh the delayed-jobs gauge: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
