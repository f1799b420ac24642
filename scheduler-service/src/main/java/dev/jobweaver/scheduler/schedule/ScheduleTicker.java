package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.job.JobIds;
import dev.jobweaver.common.reactive.RoundLoop;
import dev.jobweaver.common.schedule.ScheduleClock;
import dev.jobweaver.scheduler.SchedulerConfig;
import dev.jobweaver.scheduler.observability.JobTracing;
import dev.jobweaver.scheduler.observability.ScheduleMetrics;
import dev.jobweaver.scheduler.schedule.ScheduleTimerRepository.Claim;
import dev.jobweaver.scheduler.schedule.ScheduleTimerRepository.Due;
import dev.jobweaver.scheduler.schedule.ScheduleTimerRepository.Fired;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Fires the due ticks of recurring schedules: for each, a {@link ScheduleFiredEvent} on {@code schedule-fired} whose
 * jobId is {@link JobIds#forTick}, from which the API makes the tick's job.
 *
 * <p>A round is one transaction: {@code SELECT ... FROM schedule_timers WHERE NOT paused AND next_run_at <= now()
 * ORDER BY next_run_at LIMIT batch FOR UPDATE SKIP LOCKED} claims the due timers no other round holds; each timer's
 * ticks are planned ({@link TickPlan}: misfire and overlap); every tick's event is published and acknowledged by Kafka;
 * only then are the timers updated (next tick, last tick fired, its job) and the transaction committed.
 *
 * <h2>Exactly one job per tick</h2>
 * Rounds of this and other replicas claim disjoint timers ({@code SKIP LOCKED}) and a committed round has moved its
 * timers' {@code next_run_at} past the ticks it fired, so a tick is fired by one round. A crash or failure after Kafka
 * acknowledged and before the commit leaves the timer where it was: the next round fires the same ticks again, with the
 * same jobIds (derived from scheduleId and tick), and the API stores a job once per id.
 *
 * <h2>Wake-ups</h2>
 * Rounds run one at a time per replica. A one-shot Vert.x timer wakes the ticker when the earliest tick to come is due;
 * it is armed after every round (the claim also returns that tick, from the head of the due index) and whenever a timer
 * changes ({@link #wake}, from the schedules consumer). The {@code @Scheduled} round ({@code backstop-interval}) only
 * catches ticks of timers that another replica changed or left. A round that filled its batch, or left due ticks of a
 * schedule for later (the per-round cap), is followed by another at once.
 */
@ApplicationScoped
public class ScheduleTicker {

    private static final Logger LOG = Logger.getLogger(ScheduleTicker.class);

    @Inject ScheduleTimerRepository repository;
    @Inject ScheduleFiredPublisher publisher;
    @Inject JobTracing tracing;
    @Inject ScheduleMetrics metrics;
    @Inject SchedulerConfig config;
    @Inject Vertx vertx;
    /** Runs the rounds one at a time; its timer wakes the ticker when the earliest tick to come is due. */
    private RoundLoop loop;

    @PostConstruct
    void createLoop() {
        loop = new RoundLoop(vertx, this::loopRound,
                failure -> LOG.errorf(failure, "schedule tick round failed; its ticks stay due for the next round"));
    }

    /**
     * What a round did.
     *
     * @param fired     the ticks it fired, committed
     * @param full      whether due ticks may remain (a full batch, or a schedule at its per-round cap)
     * @param nextLater the earliest tick to come of the timers it saw, or null
     */
    public record Round(List<ScheduleFiredEvent> fired, boolean full, Instant nextLater, Instant now,
                        long sentAtNanos) {
    }

    /** A round at start-up: it fires what became due while no replica ran, and arms the timer from the table. */
    void start(@Observes StartupEvent event) {
        wake();
    }

    void stop(@Observes ShutdownEvent event) {
        loop.stop();
    }

    @Scheduled(every = "${jobweaver.scheduler.schedules.backstop-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void backstop() {
        wake();
    }

    /** Runs a round now, or right after the one in progress. Never blocks. */
    public void wake() {
        loop.wake();
    }

    /** A round run by the loop: whether due ticks may remain, after arming the timer for the earliest tick to come. */
    private Uni<Boolean> loopRound() {
        return round().map(round -> {
            if (!round.full() && round.nextLater() != null) {
                loop.wakeAt(round.nextLater(), round.now(), round.sentAtNanos());
            }
            return round.full();
        });
    }

    /** When the one-shot timer is armed for, or null if it is not. */
    public Instant timerDue() {
        return loop.timerDue();
    }

    /** What a round decided about one timer, counted once the round committed. */
    private record Planned(UUID scheduleId, TickPlan plan, List<ScheduleFiredEvent> events) {
    }

    /**
     * One claim-publish-commit round. Safe to run concurrently with rounds of this or other replicas (SKIP LOCKED makes
     * their claims disjoint); {@link #wake()} is how the service runs it.
     */
    public Uni<Round> round() {
        return Uni.createFrom().deferred(() -> {
            List<Span> spans = new ArrayList<>();
            List<Planned> planned = new ArrayList<>();
            Instant[] clock = new Instant[2];
            long sentAt = System.nanoTime();
            int batchSize = config.schedules().batchSize();
            Duration ingestGrace = config.schedules().overlapIngestGrace();
            return repository.pool().withTransaction(tx -> repository.claimDue(tx, batchSize, ingestGrace)
                            .chain(claim -> {
                                clock[0] = claim.now();
                                clock[1] = claim.nextLater();
                                List<Fired> writes = new ArrayList<>(claim.due().size());
                                List<Uni<Void>> publishes = new ArrayList<>();
                                for (Due due : claim.due()) {
                                    Planned p = plan(due, claim, writes, publishes, spans);
                                    if (p != null) {
                                        planned.add(p);
                                    }
                                }
                                Uni<Void> published = publishes.isEmpty() ? Uni.createFrom().voidItem()
                                        : Uni.join().all(publishes).andFailFast().replaceWithVoid();
                                return published.chain(() -> repository.recordFired(tx, writes))
                                        .replaceWith(claim);
                            }))
                    .onItemOrFailure().invoke((claim, failure) -> spans.forEach(s -> JobTracing.end(s, failure)))
                    .map(claim -> afterCommit(claim, planned, sentAt));
        });
    }

    /** Plans one claimed timer: its events to publish and its row's next state; null if its clock is unusable. */
    private Planned plan(Due due, Claim claim, List<Fired> writes, List<Uni<Void>> publishes, List<Span> spans) {
        ScheduleTimer timer = due.timer();
        ScheduleEvent schedule = timer.schedule();
        UUID scheduleId = schedule.scheduleId();
        Instant now = claim.now();
        ScheduleClock clock;
        try {
            clock = timer.clock();
        } catch (IllegalArgumentException e) {
            // Validated when consumed by the same rules: only a hand-edited row gets here. It stops, rather than being
            // claimed by every round.
            LOG.errorf("schedule %s: stored timing is unusable (%s); it will not fire until it is changed",
                    scheduleId, e.getMessage());
            writes.add(new Fired(scheduleId, null, timer.lastFiredFor(), timer.lastJobId(),
                    timer.lastFiredAt()));
            return null;
        }
        Duration every = schedule.interval() == null ? null : ScheduleClock.interval(schedule.interval());
        TickPlan plan = TickPlan.of(clock, every, timer.nextRunAt(), now, schedule.misfire(), schedule.overlap(),
                due.busy(), config.schedules().misfireThreshold(), config.schedules().maxTicksPerRound());
        List<ScheduleFiredEvent> events = new ArrayList<>(plan.fire().size());
        for (TickPlan.Tick tick : plan.fire()) {
            ScheduleFiredEvent event = new ScheduleFiredEvent(scheduleId, schedule.version(),
                    JobIds.forTick(scheduleId, tick.scheduledFor()), tick.scheduledFor(), now, tick.catchUp());
            // A new trace per tick: the job's trace starts here, and the API continues it from the record's header.
            Span span = tracing.start("scheduler tick", Context.root(), event.jobId(), 0);
            span.setAttribute("jobweaver.schedule.id", scheduleId.toString());
            span.setAttribute("jobweaver.schedule.scheduled_for", tick.scheduledFor().toString());
            spans.add(span);
            events.add(event);
            publishes.add(publisher.fired(event, Context.root().with(span)));
        }
        ScheduleFiredEvent last = events.isEmpty() ? null : events.getLast();
        writes.add(last == null
                ? new Fired(scheduleId, plan.next(), timer.lastFiredFor(), timer.lastJobId(),
                        timer.lastFiredAt())
                : new Fired(scheduleId, plan.next(), last.scheduledFor(), last.jobId(), now));
        return new Planned(scheduleId, plan, events);
    }

    private Round afterCommit(Claim claim, List<Planned> planned, long sentAt) {
        List<ScheduleFiredEvent> fired = new ArrayList<>();
        boolean full = claim.due().size() >= config.schedules().batchSize();
        Instant nextLater = claim.nextLater();
        for (Planned p : planned) {
            for (ScheduleFiredEvent event : p.events()) {
                metrics.fired(event.catchUp(), Duration.between(event.scheduledFor(), event.firedAt()));
                LOG.debugf("schedule %s: fired tick %s%s as job %s", event.scheduleId(), event.scheduledFor(),
                        event.catchUp() ? " (catch-up)" : "", event.jobId());
                fired.add(event);
            }
            metrics.skipped(p.plan().skippedOverlap(), p.plan().skippedMisfire());
            if (p.plan().skippedMisfire() > 0 || p.events().stream().anyMatch(ScheduleFiredEvent::catchUp)) {
                LOG.infof("schedule %s misfired: %d missed tick(s) without a job of their own%s", p.scheduleId(),
                        p.plan().skippedMisfire(), p.events().isEmpty() ? "" : ", one catch-up job fired");
            }
            full |= p.plan().more();
            Instant next = p.plan().next();
            if (next != null && next.isAfter(claim.now()) && (nextLater == null || next.isBefore(nextLater))) {
                nextLater = next;
            }
        }
        return new Round(fired, full, nextLater, claim.now(), sentAt);
    }
}
