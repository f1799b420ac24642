package dev.jobweaver.scheduler.testing;

import static dev.jobweaver.scheduler.testing.Waits.TIMEOUT;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.ScheduleEvent;
import dev.jobweaver.common.event.ScheduleFiredEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.schedule.Misfire;
import dev.jobweaver.common.schedule.Overlap;
import dev.jobweaver.scheduler.schedule.ScheduleTimer;
import dev.jobweaver.scheduler.schedule.ScheduleTimerRepository;
import io.vertx.mutiny.sqlclient.Tuple;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Publishes schedules on {@code schedules} as the API does, records {@code schedule-fired}, and reads and nudges
 * {@code schedule_timers}. Every schedule it published is deleted when it is closed, so that no test leaves a timer
 * firing into the next.
 */
public final class TestSchedules implements AutoCloseable {

    private final TestProducer producer;
    private final ObjectMapper mapper;
    private final ScheduleTimerRepository repository;
    private final TopicRecorder fired;
    private final List<UUID> published = new ArrayList<>();

    public TestSchedules(String bootstrapServers, TestProducer producer, ObjectMapper mapper,
                         ScheduleTimerRepository repository) {
        this.producer = producer;
        this.mapper = mapper;
        this.repository = repository;
        this.fired = TopicRecorder.start(bootstrapServers, Topics.SCHEDULE_FIRED);
    }

    /** An interval schedule's event: version {@code version}, anchored at {@code anchor}, not paused. */
    public static ScheduleEvent interval(UUID scheduleId, long version, String interval, Instant anchor,
                                         Misfire misfire, Overlap overlap) {
        return new ScheduleEvent(scheduleId, version, null, interval, "UTC", anchor, misfire, overlap, false, "default",
                Instant.now());
    }

    /** {@code event} at another version, paused or not. */
    public static ScheduleEvent paused(ScheduleEvent event, long version, boolean paused) {
        return new ScheduleEvent(event.scheduleId(), version, event.cron(), event.interval(), event.timezone(),
                event.anchor(), event.misfire(), event.overlap(), paused, event.tenant(), Instant.now());
    }

    /** Publishes {@code event} on {@code schedules}, keyed by its scheduleId. */
    public void publish(ScheduleEvent event) {
        published.add(event.scheduleId());
        producer.sendJson(Topics.SCHEDULES, event.scheduleId(), event);
    }

    /** Publishes {@code events} to partition 0 of {@code schedules} in one produce request, in order. */
    public void publishTogether(List<ScheduleEvent> events) {
        events.forEach(e -> published.add(e.scheduleId()));
        producer.sendTogether(Topics.SCHEDULES, 0, events.stream().map(ScheduleEvent::scheduleId).toList(), events);
    }

    /** Deletes the timer of {@code scheduleId} when this is closed (a schedule published some other way). */
    public void track(UUID scheduleId) {
        published.add(scheduleId);
    }

    /** Publishes the tombstone of {@code scheduleId}: a record without a value. */
    public void tombstone(UUID scheduleId) {
        producer.send(Topics.SCHEDULES, scheduleId, null, Map.of());
    }

    /** The timer of {@code scheduleId}, or null. */
    public ScheduleTimer timer(UUID scheduleId) {
        return repository.find(scheduleId).await().atMost(TIMEOUT);
    }

    /** Waits until the timer of {@code scheduleId} exists and matches {@code condition}; returns it. */
    public ScheduleTimer awaitTimer(UUID scheduleId, Predicate<ScheduleTimer> condition) {
        await().atMost(TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).until(() -> {
            ScheduleTimer timer = timer(scheduleId);
            return timer != null && condition.test(timer);
        });
        return timer(scheduleId);
    }

    /** Waits until {@code scheduleId} has no timer. */
    public void awaitNoTimer(UUID scheduleId) {
        await().atMost(TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .until(() -> timer(scheduleId) == null);
    }

    /** The ticks recorded on {@code schedule-fired} for {@code scheduleId} so far, in order. */
    public List<ScheduleFiredEvent> fired(UUID scheduleId) {
        return records(scheduleId).stream().map(this::event).toList();
    }

    /** The records of {@code schedule-fired} keyed {@code scheduleId} so far. */
    public List<ConsumerRecord<String, byte[]>> records(UUID scheduleId) {
        return fired.records(Topics.SCHEDULE_FIRED, scheduleId);
    }

    /**
     * Returns once the ticks of {@code scheduleId} up to the last one recorded are committed (a round publishes its
     * ticks before it commits, and a later round fires none of them again) and every record on {@code schedule-fired}
     * then is recorded: whatever a round was publishing when the last tick was recorded is recorded by now.
     */
    public void awaitRoundsRecorded(UUID scheduleId) {
        Instant last = fired(scheduleId).stream().map(ScheduleFiredEvent::scheduledFor).max(Instant::compareTo)
                .orElseThrow(() -> new AssertionError("no tick of " + scheduleId + " recorded"));
        awaitTimer(scheduleId, t -> t.lastFiredFor() != null && !t.lastFiredFor().isBefore(last));
        awaitAllRecorded();
    }

    /**
     * Returns once every record on {@code schedule-fired} so far is recorded: after a round the test ran itself, what
     * it fired (published before it returned) is recorded by then.
     */
    public void awaitAllRecorded() {
        fired.awaitCaughtUp();
    }

    /** Waits until {@code scheduleId} has at least {@code count} ticks recorded; returns them all. */
    public List<ScheduleFiredEvent> awaitFired(UUID scheduleId, int count, Duration timeout) {
        return fired.await(Topics.SCHEDULE_FIRED, scheduleId, count, timeout).stream().map(this::event).toList();
    }

    /**
     * Stores an interval timer directly, as the schedules consumer would have, with its next tick at {@code next}
     * (in the past: due now, as if the ticker had not run since).
     */
    public void insertTimer(UUID scheduleId, String interval, Instant anchor, Instant next, Misfire misfire,
                            Overlap overlap) {
        published.add(scheduleId);
        update("INSERT INTO schedule_timers (schedule_id, version, interval_text, timezone, anchor, misfire, overlap,"
                        + " paused, tenant, next_run_at, updated_at) VALUES ($1, 1, $2, 'UTC', $3, $4, $5, false,"
                        + " 'default', $6, now())", scheduleId, interval, anchor.atOffset(java.time.ZoneOffset.UTC),
                misfire.name(), overlap.name(), next.atOffset(java.time.ZoneOffset.UTC));
    }

    /** Sets the timer's next tick, as if the ticker had been stopped since then; returns the rows changed. */
    public int setNextRunAt(UUID scheduleId, Instant next) {
        return update("UPDATE schedule_timers SET next_run_at = $2 WHERE schedule_id = $1", scheduleId,
                next.atOffset(java.time.ZoneOffset.UTC));
    }

    public int update(String sql, Object... args) {
        return repository.pool().preparedQuery(sql).execute(Tuple.from(args)).await().atMost(TIMEOUT).rowCount();
    }

    private ScheduleFiredEvent event(ConsumerRecord<String, byte[]> record) {
        try {
            return mapper.readValue(record.value(), ScheduleFiredEvent.class);
        } catch (IOException e) {
            throw new AssertionError("unreadable schedule-fired record", e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (!published.isEmpty()) {
            // Tombstones too, so that the schedules topic read again (a restarted consumer) brings none of them back.
            published.stream().distinct().forEach(this::tombstone);
            update("DELETE FROM schedule_timers WHERE schedule_id = ANY($1)", (Object) published.toArray(UUID[]::new));
        }
        fired.close();
    }
}
