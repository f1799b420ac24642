package dev.jobweaver.api.schedule;

import dev.jobweaver.api.platform.db.Slice;
import dev.jobweaver.common.job.JobIds;
import io.opentelemetry.context.Context;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Stores schedules' definitions and publishes their timing. Each change is one transaction that counts a new
 * {@code version}; once it committed, its {@code ScheduleEvent} is published without the caller waiting (the row is
 * the outbox: what Kafka does not acknowledge, {@code ScheduleRepublisher} publishes later). Called on the request's
 * Vert.x event loop; the entity session and the transaction are Hibernate Reactive's, opened by
 * {@link Panache#withTransaction} on that context.
 */
@ApplicationScoped
public class ScheduleService {

    @Inject ScheduleRepository schedules;
    @Inject SchedulePublisher publisher;
    @Inject ScheduledJobs jobs;
    @Inject ScheduleSubscribers subscribers;

    /** Stores a new schedule (version 1) and publishes its timing after the commit. */
    @WithSpan("create schedule")
    public Uni<StoredSchedule> create(ScheduleDefinition definition) {
        Instant now = now();
        return Panache.withTransaction(() -> {
            Schedule schedule = new Schedule();
            schedule.id = JobIds.next();
            schedule.createdAt = now;
            schedule.anchor = now;
            schedule.version = 1;
            apply(schedule, definition, now);
            return schedules.persist(schedule).map(StoredSchedule::of);
        }).invoke(stored -> publisher.publishLater(stored.event()));
    }

    /** The schedule, or null when there is none (or it was deleted). */
    @WithSpan("find schedule")
    @WithSession
    public Uni<StoredSchedule> find(UUID id) {
        return schedules.findLive(id).map(found -> found == null ? null : StoredSchedule.of(found));
    }

    /** A page of schedules, newest first, of {@code tenant} or of every tenant (null). */
    @WithSpan("list schedules")
    @WithSession
    public Uni<Slice<StoredSchedule>> list(String tenant, int page, int size) {
        return Slice.read(schedules.page(tenant, page, size), () -> schedules.countLive(tenant), StoredSchedule::of);
    }

    /**
     * Replaces the schedule's definition (version + 1): a changed interval re-anchors its ticks at now. Null when there
     * is no such schedule.
     */
    @WithSpan("replace schedule")
    public Uni<StoredSchedule> replace(UUID id, ScheduleDefinition definition) {
        Instant now = now();
        return change(id, schedule -> {
            if (definition.interval() != null && !Objects.equals(definition.interval(), schedule.interval)) {
                schedule.anchor = now;
            }
            apply(schedule, definition, now);
            return true;
        });
    }

    /**
     * Pauses or resumes the schedule (version + 1 when that changes it; a schedule already so is answered as it is).
     * Null when there is no such schedule.
     */
    @WithSpan("pause or resume schedule")
    public Uni<StoredSchedule> pause(UUID id, boolean paused) {
        Instant now = now();
        return change(id, schedule -> {
            if (schedule.paused == paused) {
                return false;
            }
            schedule.paused = paused;
            schedule.updatedAt = now;
            return true;
        });
    }

    /**
     * Deletes the schedule: marks it deleted (version + 1) and deletes its subscriptions (with their deliveries) in the
     * same transaction; after the commit, publishes its tombstone, on whose acknowledgement its row goes. False when
     * there is no such schedule.
     */
    @WithSpan("delete schedule")
    public Uni<Boolean> delete(UUID id) {
        Instant now = now();
        return Panache.withTransaction(() -> schedules.deleteLive(id, schedule -> {
            schedule.deletedAt = now;
            schedule.updatedAt = now;
            schedule.version++;
        }).call(deleted -> deleted ? subscribers.scheduleDeleted(id) : Uni.createFrom().voidItem()))
                .invoke(deleted -> {
            if (deleted) {
                publisher.tombstoneLater(id);
            }
        });
    }

    /**
     * One run of the schedule now, whatever its timing and pause: its job is made at once from its template, in the
     * trace of {@code parent} and {@code traceparent} (the request's). Its outcome: the job made, or ignored when there
     * is no such schedule.
     */
    @WithSpan("trigger schedule")
    public Uni<ScheduledJobs.Outcome> trigger(UUID id, Context parent, String traceparent) {
        ScheduledJobs.Run run = new ScheduledJobs.Run(id, JobIds.next(), now(), ScheduledJobs.Kind.TRIGGER, parent,
                traceparent);
        return jobs.make(List.of(run)).map(List::getFirst);
    }

    /** Changes the schedule with its row locked; {@code change} answers whether it changed anything. */
    private Uni<StoredSchedule> change(UUID id, java.util.function.Predicate<Schedule> change) {
        return Panache.withTransaction(() -> schedules.findLiveForUpdate(id).map(schedule -> {
            if (schedule == null) {
                return null;
            }
            boolean changed = change.test(schedule);
            if (changed) {
                schedule.version++;
            }
            return new Changed(StoredSchedule.of(schedule), changed);
        })).map(changed -> {
            if (changed == null) {
                return null;
            }
            if (changed.changed()) {
                publisher.publishLater(changed.schedule().event());
            }
            return changed.schedule();
        });
    }

    private record Changed(StoredSchedule schedule, boolean changed) {
    }

    private static void apply(Schedule schedule, ScheduleDefinition definition, Instant now) {
        schedule.name = definition.name();
        schedule.tenant = definition.tenant();
        schedule.cron = definition.cron();
        schedule.interval = definition.interval();
        schedule.timezone = definition.timezone();
        schedule.misfire = definition.misfire();
        schedule.overlap = definition.overlap();
        schedule.paused = definition.paused();
        switch (definition.target()) {
            case ScheduleTarget.Job job -> {
                schedule.job = job.json();
                schedule.workflowId = null;
            }
            case ScheduleTarget.Workflow workflow -> {
                schedule.job = null;
                schedule.workflowId = workflow.workflowId();
            }
        }
        schedule.updatedAt = now;
    }

    /** Now, to the microsecond the database keeps, so that what is answered is what a later read shows. */
    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
