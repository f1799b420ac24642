package dev.jobweaver.api.schedule;

import dev.jobweaver.api.outbox.RowRepublisher;
import dev.jobweaver.common.event.ScheduleEvent;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Publishes what the publish after each commit did not: changes Kafka did not acknowledge (a crash or an outage
 * between the commit and the acknowledgement: {@code published_version < version}), deleted schedules' tombstones
 * (then their rows go), and every schedule last published more than {@code schedules.refresh-after} (3 days) ago, so
 * that the compacted topic, whose records expire after 7 days, always holds every live schedule. A change or delete
 * younger than one round is left to its own publish ({@link RowRepublisher}).
 *
 * <h2>Several instances</h2>
 * Every API instance runs it, without coordination: two instances may publish the same version, which readers take
 * once (they keep the highest version per schedule), and record it with a guarded update ({@code published_version <=
 * v}) that never moves a row backwards; a tombstone published twice deletes nothing more, and its row goes once. No
 * row is locked while Kafka answers, so a change or delete never waits for a publish. A live event that overtakes a
 * delete's tombstone on the topic (a refresh read before the delete, acknowledged after the tombstone) would bring the
 * schedule back to the scheduler; its next tick finds no schedule here, makes no job, and publishes the tombstone
 * again ({@code ScheduledJobs}).
 *
 * <p>Its rounds are run by the outbox's republish loop, on a Vert.x event loop, never concurrently with themselves
 * ({@link RowRepublisher}).
 */
@ApplicationScoped
public class ScheduleRepublisher extends RowRepublisher<ScheduleRepublisher.Due> {

    private static final Logger LOG = Logger.getLogger(ScheduleRepublisher.class);

    /** A row to publish: its timing, or its tombstone when {@code event} is null. */
    record Due(UUID scheduleId, ScheduleEvent event) {
    }

    @Inject ScheduleRepository schedules;
    @Inject SchedulePublisher publisher;
    @Inject ScheduleMetrics metrics;
    @Inject ScheduleConfig config;

    ScheduleRepublisher() {
        super(LOG, "schedule(s)");
    }

    @Override
    public Rounds rounds() {
        return Rounds.of("schedule-republisher", config);
    }

    /** The rows due, read in a session of their own. */
    @Override
    @WithSession
    protected Uni<List<Due>> due(Instant settledBefore) {
        Instant refreshBefore = Instant.now().minus(config.refreshAfter());
        return schedules.toRepublish(settledBefore, refreshBefore, config.republishBatchSize()).map(rows -> {
            List<Due> due = new ArrayList<>(rows.size());
            for (Schedule row : rows) {
                due.add(new Due(row.id, row.deletedAt != null ? null : StoredSchedule.of(row).event()));
            }
            return due;
        });
    }

    /** Publishes one row, its timing or its tombstone, and counts it once Kafka acknowledged it. */
    @Override
    protected Uni<Void> republish(Due row) {
        return (row.event() == null ? publisher.tombstone(row.scheduleId()) : publisher.publish(row.event()))
                .invoke(() -> metrics.republished(1))
                .onFailure().invoke(e -> LOG.debugf("schedule %s not republished: %s", row.scheduleId(),
                        e.getMessage()));
    }
}
