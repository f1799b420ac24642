package dev.jobweaver.scheduler.schedule;

import dev.jobweaver.common.event.ScheduleEvent;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Keeps {@code schedule_timers} in step with the schedules the API publishes: a newer version of a schedule's timing
 * is stored, an older one ignored, a deleted schedule's timer removed.
 *
 * <h2>The next tick</h2>
 * A new timer, or one whose clock changed (cron, interval, timezone, anchor), starts at its first tick after the
 * change, as the API stored it ({@code changedAt}, or now if that is later); so does a paused schedule that is
 * resumed: the ticks of its pause are not fired. Counting from the change, not from when this consumer saw it, keeps
 * the first ticks of a new schedule that reached the scheduler late (a consumer group rebalancing, a restart): they
 * fire late, or as a misfire once later than the threshold, and the API's {@code nextRunAt} is the scheduler's. Any
 * other change (misfire, overlap, tenant, pausing) keeps the next tick where it was.
 *
 * <h2>Guarantees</h2>
 * A poll is applied in one transaction: its timers are locked ({@code FOR UPDATE}, in scheduleId order, so a ticker
 * round holding one is waited for and its fired ticks are seen), each change is applied in order to the timer as the
 * changes before it left it, and every changed timer is written once. The caller acknowledges the records after the
 * commit; applying a poll again changes nothing (versions). A commit that changed a timer wakes the ticker, which arms
 * its timer for the changed ticks.
 *
 * <h2>Threads</h2>
 * Runs on the Vert.x context of the consuming channel; nothing blocks.
 */
@ApplicationScoped
public class ScheduleService {

    private static final Logger LOG = Logger.getLogger(ScheduleService.class);

    @Inject ScheduleTimerRepository repository;
    @Inject ScheduleTicker ticker;

    /**
     * A consumed record of {@code schedules}.
     *
     * @param event the schedule's timing, or null for a tombstone: the schedule was deleted
     */
    public record ScheduleChange(UUID scheduleId, ScheduleEvent event) {
    }

    /** Applies {@code changes} in order, in one transaction; the number of timers written or deleted. */
    @WithSpan("scheduler apply schedules")
    public Uni<Integer> applyAll(List<ScheduleChange> changes) {
        if (changes.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Uni.createFrom().deferred(() -> {
            Set<UUID> ids = new LinkedHashSet<>();
            changes.forEach(c -> ids.add(c.scheduleId()));
            return repository.pool().withTransaction(tx -> repository.lockAll(tx, ids).chain(locked -> {
                Map<UUID, ScheduleTimer> current = new HashMap<>(locked.timers());
                Map<UUID, ScheduleTimer> changed = new LinkedHashMap<>();
                Set<UUID> deleted = new LinkedHashSet<>();
                for (ScheduleChange change : changes) {
                    UUID id = change.scheduleId();
                    if (change.event() == null) {
                        if (current.remove(id) != null) {
                            deleted.add(id);
                        }
                        changed.remove(id);
                        continue;
                    }
                    ScheduleTimer before = current.get(id);
                    ScheduleTimer after = apply(before, change.event(), locked.now());
                    if (after == before) {
                        LOG.debugf("schedule %s: version %d ignored, version %d is stored", id,
                                change.event().version(), before.schedule().version());
                        continue;
                    }
                    current.put(id, after);
                    changed.put(id, after);
                }
                // Deletes first: a schedule deleted and then stored again within the poll is inserted anew.
                List<ScheduleTimer> writes = new ArrayList<>(changed.values());
                return repository.deleteAll(tx, deleted)
                        .chain(() -> repository.upsertAll(tx, writes))
                        .replaceWith(writes.size() + deleted.size());
            })).invoke(count -> {
                if (count > 0) {
                    ticker.wake();
                }
            });
        });
    }

    /**
     * {@code current} as {@code event} leaves it, or {@code current} itself when the event is not newer.
     *
     * @param now the database's clock: a new or changed timer's next tick is found from the change's
     *            {@code changedAt}, or from {@code now} when that is earlier (a clock ahead of the database's)
     */
    static ScheduleTimer apply(ScheduleTimer current, ScheduleEvent event, Instant now) {
        ScheduleEvent was = current == null ? null : current.schedule();
        if (was != null && event.version() <= was.version()) {
            return current;
        }
        // At the database's microseconds, so that the clock built from a stored row is this one.
        Instant anchor = event.anchor() == null ? null : event.anchor().truncatedTo(ChronoUnit.MICROS);
        ScheduleEvent schedule = new ScheduleEvent(event.scheduleId(), event.version(), event.cron(),
                event.interval(), event.timezone(), anchor, event.misfire(), event.overlap(), event.paused(),
                event.tenant(), null);
        ScheduleTimer next = current == null ? new ScheduleTimer(schedule, null, null, null, null)
                : new ScheduleTimer(schedule, current.nextRunAt(), current.lastFiredFor(), current.lastJobId(),
                        current.lastFiredAt());
        boolean clockChanged = was == null || !Objects.equals(was.cron(), schedule.cron())
                || !Objects.equals(was.interval(), schedule.interval())
                || !Objects.equals(was.timezone(), schedule.timezone())
                || !Objects.equals(was.anchor(), schedule.anchor());
        boolean resumed = was != null && was.paused() && !schedule.paused();
        if (clockChanged || resumed) {
            Instant from = event.changedAt() != null && event.changedAt().isBefore(now) ? event.changedAt() : now;
            return next.withNextRunAt(next.clock().nextAfter(from));
        }
        return next;
    }
}
