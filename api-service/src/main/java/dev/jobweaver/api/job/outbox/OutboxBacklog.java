package dev.jobweaver.api.job.outbox;

import dev.jobweaver.api.job.JobMetrics;
import dev.jobweaver.api.job.JobApiConfig;
import dev.jobweaver.api.platform.background.RoundFailures;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * The unpublished outbox (jobs committed whose events Kafka has not acknowledged yet), its bound, and its figures for
 * the metrics and readiness.
 *
 * <h2>Why a bound</h2>
 * Kafka being down delays jobs, it does not refuse them: submissions keep being committed and answered 202 while the
 * backlog grows. Past {@code outbox.max-backlog-jobs} (100,000) or {@code outbox.max-backlog-bytes} (256 MiB) the API
 * answers 503 with Retry-After instead, so an outage of unknown length cannot fill the database, and the recovery
 * once Kafka is back stays bounded.
 *
 * <h2>How it is counted</h2>
 * The database is measured every {@code outbox.backlog-refresh} (1 s): one {@code count(*)} and {@code sum} over the
 * outbox, which is small while Kafka is up. Between two measurements the jobs this instance stored are added, so a
 * burst cannot overshoot the bound by more than what the other instances stored within one refresh. The figure
 * includes the rows published within the last delete delay (250 ms), which are not deleted yet.
 *
 * <h2>Threads</h2>
 * {@link #admits()} and {@link #stored} are called on event loops and only read or add to atomics; the measurement
 * runs from the scheduler and completes on the database client's event loop.
 */
@ApplicationScoped
public class OutboxBacklog {

    private static final Logger LOG = Logger.getLogger(OutboxBacklog.class);

    private final OutboxStore outbox;
    private final long maxJobs;
    private final long maxBytes;
    private volatile OutboxStore.Backlog measured = OutboxStore.Backlog.EMPTY;
    private final AtomicLong jobsSince = new AtomicLong();
    private final AtomicLong bytesSince = new AtomicLong();
    private volatile boolean refusing;

    OutboxBacklog(OutboxStore outbox, JobMetrics metrics, JobApiConfig config) {
        this.outbox = outbox;
        this.maxJobs = config.outbox().maxBacklogJobs();
        this.maxBytes = config.outbox().maxBacklogBytes().asLongValue();
        metrics.outboxBacklog(this);
    }

    /** Whether a submission may be stored now: the backlog is within both bounds. */
    public boolean admits() {
        return jobs() < maxJobs && bytes() < maxBytes;
    }

    /** This instance stored {@code jobs} more rows holding {@code bytes} of events. */
    public void stored(int jobs, long bytes) {
        jobsSince.addAndGet(jobs);
        bytesSince.addAndGet(bytes);
    }

    /** Unpublished jobs: the last measurement plus what this instance stored since. */
    public long jobs() {
        return measured.jobs() + jobsSince.get();
    }

    /** Bytes of unpublished events, counted like {@link #jobs()}. */
    public long bytes() {
        return measured.bytes() + bytesSince.get();
    }

    /** How long the oldest unpublished job has waited, as of the last measurement; zero when none waits. */
    public Duration oldestAge() {
        Instant oldest = measured.oldest();
        return oldest == null ? Duration.ZERO : Duration.between(oldest, Instant.now()).abs();
    }

    /** The bounds, for messages: "100000 jobs or 268435456 bytes". */
    public String bounds() {
        return maxJobs + " jobs or " + maxBytes + " bytes";
    }

    @Scheduled(every = "${jobweaver.api.outbox.backlog-refresh:1s}", identity = "outbox-backlog",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduledRefresh() {
        return RoundFailures.logged(refresh(), LOG, Logger.Level.DEBUG, "outbox backlog not measured");
    }

    /** Measures the backlog in the database now. */
    Uni<OutboxStore.Backlog> refresh() {
        // What is stored while the query runs is counted twice until the next refresh: the bound errs on the safe side.
        long jobsBefore = jobsSince.get();
        long bytesBefore = bytesSince.get();
        return outbox.backlog().invoke(backlog -> {
            measured = backlog;
            jobsSince.addAndGet(-jobsBefore);
            bytesSince.addAndGet(-bytesBefore);
            boolean over = !admits();
            if (over != refusing) {
                refusing = over;
                if (over) {
                    LOG.warnf("the unpublished outbox holds %d jobs (%d bytes, the oldest %d s old), over its bound of"
                            + " %s: submissions are answered 503 until Kafka takes them", backlog.jobs(),
                            backlog.bytes(), oldestAge().toSeconds(), bounds());
                } else {
                    LOG.infof("the unpublished outbox is back within its bound (%d jobs): submissions are accepted",
                            backlog.jobs());
                }
            }
        });
    }
}
