package dev.jobweaver.common.worker;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.quarantine.BatchIntake;
import dev.jobweaver.common.quarantine.Consumed;
import dev.jobweaver.common.quarantine.Quarantine;
import dev.jobweaver.common.quarantine.QuarantineReason;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;

/**
 * How a service reads {@code worker-heartbeats}: the one intake that the API and the scheduler each put in front of
 * their {@link WorkerStore}.
 *
 * <p>The quarantine rule ({@link BatchIntake}): a record that does not parse, breaks a rule ({@link EventRules}), is not
 * keyed by its workerId, or is a tombstone (a worker that leaves says so in a heartbeat) is set aside in
 * {@code jobweaver-quarantine}; one the database refuses for good is split out and set aside alone. The rest of a poll
 * goes to {@code store} at once, and the poll is acknowledged once what it returns completed. A heartbeat is a snapshot
 * that the worker's next one replaces, so a poll that arrives while the service stops, its database pool closed, is
 * acknowledged unapplied ({@link BatchIntake#supersededByNext}) rather than holding the stop; a worker's leaving one
 * lost so is made good by its heartbeat's expiry.
 */
public final class WorkerHeartbeats {

    private WorkerHeartbeats() {
    }

    /** The intake of {@code worker-heartbeats} that hands each poll's good heartbeats to {@code store}. */
    public static BatchIntake<WorkerHeartbeatEvent> intake(Quarantine quarantine, ObjectMapper mapper,
            Function<List<WorkerHeartbeatEvent>, Uni<Void>> store) {
        BatchIntake.Reader<WorkerHeartbeatEvent> events = BatchIntake.events(mapper, WorkerHeartbeatEvent.class,
                EventRules::problem, (key, event) -> EventRules.workerKeyProblem(key, event.workerId()));
        return new BatchIntake<>(Channels.WORKER_HEARTBEATS_IN, quarantine,
                (record, origin) -> origin.value() == null ? new Consumed.Refused<>(origin, QuarantineReason.INVALID,
                        "a tombstone; a worker that leaves says so in a heartbeat") : events.read(record, origin),
                store).supersededByNext();
    }
}
