package dev.jobweaver.scheduler.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.error.SchedulerErrorCode;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.common.job.StepRules;
import dev.jobweaver.common.reactive.RoundLoop;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.job.JobExecution;
import dev.jobweaver.scheduler.job.JobStateMachine;
import dev.jobweaver.scheduler.job.JobStateWriter;
import dev.jobweaver.scheduler.job.JobTransitions;
import dev.jobweaver.scheduler.job.JobsCommitted;
import dev.jobweaver.scheduler.job.LeasePolicy;
import dev.jobweaver.scheduler.job.store.JobClaims.Claim;
import dev.jobweaver.scheduler.job.store.JobClaims;
import dev.jobweaver.scheduler.job.store.JobUpdates;
import dev.jobweaver.scheduler.observability.JobLog;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.SchedulerMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import dev.jobweaver.common.worker.LiveWorkers;
import dev.jobweaver.scheduler.worker.ParkedJobs;
import dev.jobweaver.scheduler.worker.WorkerPool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Claims due jobs and dispatches their next attempt to {@code run-job}: retries that became due, and new jobs that
 * ingestion stored {@code PENDING} instead of dispatching them itself (no slot free, a due job waiting, Kafka down).
 *
 * <p>A round is one transaction: {@code SELECT ... WHERE job_status = 'PENDING' AND priority = ? AND next_run_at <=
 * now() ORDER BY next_run_at LIMIT batch FOR UPDATE SKIP LOCKED}, level after level, claims rows that no other replica
 * holds; for each, the
 * {@code RunJobEvent} (eventId derived from (jobId, attempt)) and its {@code RUNNING} status event are published
 * and acknowledged by Kafka; only then are the rows updated to {@code RUNNING} (attempt + 1, lease, version + 1)
 * and the transaction committed.
 *
 * <p>Dual-write rule: a crash or failure before the commit leaves the rows {@code PENDING} at their old attempt;
 * the next round re-dispatches the same attempt number, hence the same eventId, which the worker recognises as the
 * same run. Rows stay locked while Kafka acknowledges, so an outcome that comes back before the commit waits for it.
 *
 * <p>Rounds run one at a time per replica. {@link #wake()} starts one at once (new work arrived), or asks the
 * running one to be followed by another; a round that filled its batch is followed by another at once. The timer
 * ({@link DispatchTimer}) only catches retries that became due and work that arrived at other replicas.
 *
 * <p>At most {@code max-in-flight} attempts run at once: a round claims fewer rows when the limit is near, and every
 * applied outcome or expired lease wakes the dispatcher, since it frees a slot.
 *
 * <h2>Priorities</h2>
 * Each round draws the level it looks at first (by default 70% HIGH, 20% NORMAL, 10% LOW: {@link ClaimOrder}) and falls
 * through to the others for what is left of its batch; within a level, the oldest due job first. Under a flood of
 * HIGH jobs, a tenth of the rounds still start with the LOW ones, so no level starves.
 *
 * <h2>Concurrency limits</h2>
 * While no limit is known (none configured, no tenant's limit stored, no waiting job of a workflow with
 * {@code maxConcurrency}) a round is the plain claim above. The plain claim also probes for limits kept in the
 * database; when it finds one it claims nothing, and the round, and every round after it until a limited round finds
 * none left, claims under the limits: it takes an advisory lock that serializes such claims over all replicas, counts
 * the jobs {@code RUNNING} by tenant, job type and workflow in a statement of its own (so it sees the previous
 * holder's commit), reads the due jobs of keys that still have room, picks among them with {@link LimitPlan} and
 * locks those (SKIP LOCKED). The lock is held until the commit, after Kafka acknowledged the runs, so no two limited
 * claims ever count the same free room. Every applied outcome, expired lease and cancel of a running job wakes the
 * dispatcher, so a job waiting for room starts at the next round. docs/architecture.md, "Concurrency limits", says
 * why and what it costs.
 *
 * <h2>Jobs due later</h2>
 * One one-shot timer wakes the dispatcher when the earliest {@code PENDING} job that is not due yet becomes due. It is
 * armed after every round that left nothing due (each claim also returns that earliest start, from three index
 * probes), at start-up (a round runs then), and whenever a job due earlier than the armed time is stored or a retry
 * is scheduled ({@link #wakeAt}). Jobs that wait cost nothing until then; they are rows, so a restart loses none.
 */
@ApplicationScoped
public class Dispatcher {

    private static final Logger LOG = Logger.getLogger(Dispatcher.class);
    /** The error of a job whose stored instruction cannot be read. */
    public static final String UNREADABLE = "stored instruction is unreadable";

    private final JobClaims claims;
    private final JobUpdates updates;
    private final JobStateWriter writer;
    private final LeasePolicy leasePolicy;
    private final JobTracing tracing;
    private final SchedulerMetrics metrics;
    private final ObjectMapper mapper;
    private final JobTransitions transitions;
    private final int batchSize;
    private final int maxInFlight;
    private final OptionalInt globalLimit;
    private final Map<String, Integer> typeLimits;
    private final Map<String, Integer> queueLimits;
    /** A limit is configured: every round claims under the limits. */
    private final boolean configuredLimits;
    /**
     * A limit kept in the database was seen and no limited round has found it gone since: rounds claim under the
     * limits without trying the plain claim first. Written by rounds, which run one at a time.
     */
    private volatile boolean limitsInDb;
    /** The last limited claim read fewer due jobs than there were, and took some: another round follows at once. */
    private volatile boolean moreDue;
    /** Runs the rounds one at a time; its timer wakes the dispatcher when the earliest job stored for later is due. */
    private final RoundLoop loop;
    /** Which (queue, type) pairs a live worker serves: a claimed job of another pair is parked, not dispatched. */
    private final WorkerPool workers;
    private final ParkedJobs parked;
    private final Duration parkFor;
    private final ClaimOrder claimOrder;

    public Dispatcher(JobClaims claims, JobUpdates updates, JobStateWriter writer, LeasePolicy leasePolicy,
                      JobTracing tracing, SchedulerMetrics metrics, ObjectMapper mapper, Vertx vertx,
                      SchedulerConfig config, JobTransitions transitions, WorkerPool workers, ParkedJobs parked) {
        this.workers = workers;
        this.parked = parked;
        this.parkFor = config.workers().parkFor();
        SchedulerConfig.PriorityWeights weights = config.dispatch().priorityWeights();
        this.claimOrder = new ClaimOrder(weights.high(), weights.normal(), weights.low());
        this.claims = claims;
        this.updates = updates;
        this.writer = writer;
        this.leasePolicy = leasePolicy;
        this.tracing = tracing;
        this.metrics = metrics;
        this.mapper = mapper;
        this.transitions = transitions;
        this.loop = new RoundLoop(vertx, this::round, failure -> LOG.errorf(failure,
                "%s: dispatch round failed; the rows stay PENDING for the next round",
                SchedulerErrorCode.DISPATCH_FAILED.code()));
        this.batchSize = config.dispatch().batchSize();
        this.maxInFlight = config.dispatch().maxInFlight();
        this.globalLimit = config.limits().maxRunning();
        this.typeLimits = typeLimits(config.limits().jobTypes());
        this.queueLimits = queueLimits(config.limits().queues());
        this.configuredLimits = globalLimit.isPresent() || !typeLimits.isEmpty() || !queueLimits.isEmpty();
        if (globalLimit.isPresent() && globalLimit.getAsInt() < 1) {
            throw new IllegalArgumentException("jobweaver.scheduler.limits.max-running must be at least 1, got "
                    + globalLimit.getAsInt());
        }
    }

    /** The configured limits by job type, checked: each a well-formed type's name, each limit at least 1. */
    static Map<String, Integer> typeLimits(Map<String, Integer> configured) {
        configured.forEach((type, max) -> {
            try {
                JobType.of(type);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("jobweaver.scheduler.limits.job-types: " + type
                        + " is not a job type: " + e.getMessage(), e);
            }
            if (max == null || max < 1) {
                throw new IllegalArgumentException("jobweaver.scheduler.limits.job-types." + type
                        + " must be at least 1, got " + max);
            }
        });
        return Map.copyOf(configured);
    }

    /** The configured limits by queue, checked: each a well-formed queue's name, each limit at least 1. */
    static Map<String, Integer> queueLimits(Map<String, Integer> configured) {
        configured.forEach((queue, max) -> {
            if (!JobControlRules.QUEUE.matcher(queue).matches()) {
                throw new IllegalArgumentException("jobweaver.scheduler.limits.queues: " + queue
                        + " is not a queue's name: a lower-case letter or digit, then at most 62 lower-case letters,"
                        + " digits or '-'");
            }
            if (max == null || max < 1) {
                throw new IllegalArgumentException("jobweaver.scheduler.limits.queues." + queue
                        + " must be at least 1, got " + max);
            }
        });
        return Map.copyOf(configured);
    }

    /** Whether a configured limit applies to the jobs of {@code queue}: ingestion never dispatches them itself. */
    public boolean limitsQueue(String queue) {
        return !queueLimits.isEmpty() && queueLimits.containsKey(queue == null ? JobControl.DEFAULT_QUEUE : queue);
    }

    /** The job types that have a configured limit: ingestion never dispatches their jobs itself. */
    public Set<String> limitedTypes() {
        return typeLimits.keySet();
    }

    /** Whether a configured limit applies to every job: ingestion then dispatches none itself. */
    public boolean limitsEveryJob() {
        return globalLimit.isPresent();
    }

    /** A round at start-up: it dispatches what became due while no replica ran, and arms the timer from the table. */
    void start(@Observes StartupEvent event) {
        wake();
    }

    void stop(@Observes ShutdownEvent event) {
        loop.stop();
    }

    /** Runs a round now, or right after the one in progress. Never blocks. */
    public void wake() {
        loop.wake();
    }

    /** A round run by the loop: whether its batch was full, after arming the timer for what it left for later. */
    private Uni<Boolean> round() {
        return claimAndDispatch().map(round -> {
            // claimed, not dispatched: a batch of parked jobs is a full batch too, and what is behind it is due
            boolean full = round.claimed() >= batchSize || moreDue;
            if (!full && round.nextLater() != null) {
                wakeAt(round.nextLater(), round.now(), round.sentAtNanos());
            }
            return full;
        });
    }

    /**
     * Wakes the dispatcher at {@code dueAt} (a job stored for later, a retry's next run), as measured from
     * {@code now} on the database's clock; nothing changes if the timer is already armed for that instant or
     * earlier. In this replica: the round each replica runs after that instant arms its own timer for what is next.
     */
    public void wakeAt(Instant dueAt, Instant now) {
        wakeAt(dueAt, now, System.nanoTime());
    }

    /**
     * As {@link #wakeAt(Instant, Instant)}, for a {@code now} that the database read no earlier than
     * {@code sentAtNanos} ({@link System#nanoTime()} as the statement was sent): the time since is taken off the
     * delay ({@link RoundLoop#wakeAt}).
     */
    public void wakeAt(Instant dueAt, Instant now, long sentAtNanos) {
        loop.wakeAt(dueAt, now, sentAtNanos);
    }

    /** When the one-shot timer is armed for, or null if it is not. */
    public Instant timerDue() {
        return loop.timerDue();
    }

    /** What a round did: the jobs dispatched, and when the next job not due yet becomes due (null: none). */
    private record Round(List<JobExecution> dispatched, int claimed, Instant nextLater, Instant now,
                         long sentAtNanos) {
    }

    /** A job's stored payload as a tree and the lease of its next attempt. */
    private record Dispatchable(JsonNode payload, Duration lease) {
    }

    /**
     * One claim-publish-commit round; the ids of the jobs dispatched. Safe to run concurrently with rounds of this
     * or other replicas (SKIP LOCKED makes their claims disjoint); {@link #wake()} is how the service runs it.
     */
    public Uni<List<UUID>> dispatchRound() {
        return dispatchRoundInOrder(claimOrder.draw());
    }

    /** A round that visits the levels in {@code order}: two such rounds can race for different jobs. */
    Uni<List<UUID>> dispatchRoundInOrder(List<Priority> order) {
        return claimAndDispatch(order).map(round -> round.dispatched().stream().map(JobExecution::jobId).toList());
    }

    private Uni<Round> claimAndDispatch() {
        return claimAndDispatch(claimOrder.draw());
    }

    private Uni<Round> claimAndDispatch(List<Priority> order) {
        moreDue = false;
        Instant[] nextLater = new Instant[2];
        int[] claimed = new int[1];
        long sentAt = System.nanoTime();
        return transitions.run(t -> claim(t.tx(), order)
                .chain(claim -> {
                    nextLater[0] = claim.nextLater();
                    nextLater[1] = claim.now();
                    claimed[0] = claim.jobs().size();
                    if (claim.jobs().isEmpty()) {
                        return Uni.createFrom().item(List.<JobExecution>of());
                    }
                    Instant now = claim.now();
                    List<JobExecution> next = new ArrayList<>(claim.jobs().size());
                    List<Uni<Void>> publishes = new ArrayList<>();
                    Uni<Void> unrunnable = Uni.createFrom().voidItem();
                    List<JobExecution> failedRows = new ArrayList<>();
                    List<JobExecution> parkedRows = new ArrayList<>();
                    LiveWorkers live = workers.live();
                    for (JobExecution job : claim.jobs()) {
                        String queue = JobControl.orDefaults(job.control()).queueOrDefault();
                        if (!live.serves(queue, job.jobType())) {
                            // no live worker would take its run: it waits, set aside, until one comes (WorkerPool)
                            parkedRows.add(JobStateMachine.park(job, now, now.plus(parkFor)));
                            continue;
                        }
                        Span span = t.trace(tracing.start("scheduler dispatch",
                                JobTracing.fromTraceparent(job.traceparent()), job.jobId(), job.attempt() + 1));
                        Context trace = Context.root().with(span);
                        Dispatchable runnable = runnable(job);
                        if (runnable == null) {
                            JobExecution failed = JobStateMachine.failUnrunnable(job, UNREADABLE, now);
                            failedRows.add(failed);
                            unrunnable = unrunnable.chain(() -> writer.write(t.tx(), job, failed, trace)
                                    .invoke(f -> {
                                        metrics.deadLettered(f);
                                        JobLog.error(LOG, null, f.jobId(), f.traceId(),
                                                "%s: stored instruction unreadable: job FAILED and dead-lettered",
                                                SchedulerErrorCode.DISPATCH_FAILED.code());
                                    })
                                    .replaceWithVoid());
                            continue;
                        }
                        JobExecution attempt = JobStateMachine.dispatch(job, now, now.plus(runnable.lease()));
                        next.add(attempt);
                        publishes.add(writer.publishAttempt(attempt, runnable.payload(), trace));
                    }
                    // A node job that can never run ends its node, in this transaction (WorkflowOrchestrator).
                    publishes.add(failedRows.isEmpty() ? unrunnable
                            : unrunnable.chain(() -> t.jobsEnded(failedRows)));
                    List<JobExecution> written = parkedRows.isEmpty() ? next : concat(next, parkedRows);
                    return Uni.join().all(publishes).andFailFast()
                            .chain(() -> updates.updateAll(t.tx(), written))
                            .chain(() -> parked.park(t.tx(), parkedRows.stream().map(j -> new ParkedJobs.Parked(
                                    j.jobId(), JobControl.orDefaults(j.control()).queueOrDefault(), j.jobType()))
                                    .toList()))
                            .invoke(() -> parkedRows.forEach(j -> JobLog.debug(LOG, j.jobId(), j.traceId(),
                                    "waits for %s until %s", live.waitingFor(
                                            JobControl.orDefaults(j.control()).queueOrDefault(), j.jobType()),
                                    j.nextRunAt())))
                            .replaceWith(next);
                }), (dispatched, t) -> dispatched.forEach(this::dispatched))
                .map(dispatched -> new Round(dispatched, claimed[0], nextLater[0], nextLater[1], sentAt));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        return all;
    }

    /** The plain claim while no limit is known; the claim under the limits once one is. */
    private Uni<Claim> claim(SqlConnection tx, List<Priority> order) {
        if (configuredLimits || limitsInDb) {
            return limitedClaim(tx, order);
        }
        return claims.claimDue(tx, batchSize, maxInFlight, order).chain(claim -> {
            if (!claim.limitsInDb()) {
                return Uni.createFrom().item(claim);
            }
            limitsInDb = true;
            return limitedClaim(tx, order);
        });
    }

    /**
     * A claim that exceeds no limit, with two replicas or more: under the claim lock, counts what runs, reads the
     * due jobs of the keys with room, picks among them and locks them. A round that found more due jobs than it read
     * reports a full batch, so that another follows at once.
     */
    private Uni<Claim> limitedClaim(SqlConnection tx, List<Priority> order) {
        return claims.lockForLimitedClaim(tx)
                .invoke(lock -> limitsInDb = lock.limitsInDb())
                .chain(lock -> claims.runningAndTenantLimits(tx).chain(counts -> {
                    LimitPlan plan = new LimitPlan(batchSize, maxInFlight, globalLimit, typeLimits, queueLimits,
                            counts.tenantLimits(), counts.running());
                    // Read more than the room: jobs of keys with less room than their due jobs are passed over.
                    int perLevel = plan.room() == 0 ? 0 : batchSize;
                    return claims.limitedCandidates(tx, order, perLevel, plan.saturatedTenants(),
                                    plan.saturatedTypes(), plan.saturatedWorkflows(), plan.saturatedQueues())
                            .chain(candidates -> {
                                List<UUID> picked = plan.pick(candidates.jobs());
                                moreDue = candidates.truncated() && !picked.isEmpty();
                                return claims.lockPicked(tx, picked).map(jobs -> new Claim(lock.now(), jobs,
                                        candidates.nextLater(), false));
                            });
                }));
    }

    /**
     * After a committed transaction of job state changes: counts the attempts it dispatched, and runs a round now or
     * arms the timer, as it asks.
     */
    void committed(@Observes JobsCommitted committed) {
        committed.dispatched().forEach(this::dispatched);
        if (committed.wake()) {
            wake();
        }
        if (committed.dueAt() != null) {
            wakeAt(committed.dueAt(), committed.now(), committed.sentAtNanos());
        }
    }

    /** Counts and logs an attempt dispatched by a committed transaction, this class's or ingestion's. */
    private void dispatched(JobExecution job) {
        Instant runAt = job.control() == null ? null : job.control().runAt();
        Instant due = runAt != null && runAt.isAfter(job.createdAt()) ? runAt : job.createdAt();
        metrics.dispatched(job.attempt(), Duration.between(due, job.dispatchedAt()));
        JobLog.debug(LOG, job.jobId(), job.traceId(), "dispatched attempt %d, leased until %s", job.attempt(),
                job.leaseUntil());
    }

    /** The job's payload and lease, or null if its stored type or payload cannot be run. */
    private Dispatchable runnable(JobExecution job) {
        try {
            JobType type = JobType.of(job.jobType());
            JsonNode payload = mapper.readTree(job.instruction());
            List<String> problems = new ArrayList<>(1);
            Payloads.check(type, payload, StepRules.Limits.CEILINGS, problems, 1);
            if (!problems.isEmpty()) {
                LOG.debugf("unrunnable instruction of job %s: %s", job.jobId(), problems.getFirst());
                return null;
            }
            return new Dispatchable(payload, leasePolicy.leaseFor(type, payload, job.control()));
        } catch (Exception e) {
            // Validated at ingestion by the same rules: only a hand-edited or corrupted row gets here.
            LOG.debugf(e, "unreadable instruction of job %s", job.jobId());
            return null;
        }
    }
}
