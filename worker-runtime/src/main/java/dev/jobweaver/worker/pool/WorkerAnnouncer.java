package dev.jobweaver.worker.pool;

import dev.jobweaver.common.event.EventRules;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.messaging.Channels;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.worker.WorkerConfig;
import dev.jobweaver.worker.WorkerIdentity;
import dev.jobweaver.worker.handler.HandlerRegistry;
import dev.jobweaver.worker.offsets.OutOfOrderCommitHandler;
import dev.jobweaver.worker.offsets.OutOfOrderCommitHandlerFactory;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.core.Vertx;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Tells the platform this worker lives: a {@link WorkerHeartbeatEvent} on {@code worker-heartbeats} (keyed by its
 * workerId) when it starts, every {@code jobweaver.worker.heartbeat-interval} after, and one saying it leaves when it
 * stops. The API shows the workers of each queue ({@code GET /api/queues}).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A heartbeat names exactly the types of this worker's handlers ({@link HandlerRegistry}) and the queues it is
 *       configured with, both checked at start against {@link EventRules}: a worker whose announcement would be
 *       quarantined does not start.</li>
 *   <li>It names the defaults its handlers declare for their types, which the scheduler applies to the jobs of those
 *       types that set none of their own.</li>
 *   <li>It also names the partitions of its queues' run topics this worker holds, so that the scheduler can aim the
 *       runs of a type only some of a queue's workers declare. A change of them (a rebalance) is announced within a
 *       second ({@link #ASSIGNMENT_CHECK}), not only at the next heartbeat.</li>
 *   <li>Best effort: a heartbeat Kafka does not take is logged and the next one goes out on time. Readers count a
 *       worker live until {@link WorkerHeartbeatEvent#liveUntil()}, three intervals after its last heartbeat, so one
 *       lost heartbeat changes nothing; a worker killed without its leaving heartbeat counts as gone once that time is
 *       over.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * A Vert.x periodic timer sends the heartbeats from an event loop, without waiting for Kafka. The leaving heartbeat is
 * sent on the shutdown thread, before the runs are drained ({@code GracefulShutdown} observes at a later priority), and
 * waited for at most a second.
 */
@ApplicationScoped
public class WorkerAnnouncer {

    private static final Logger LOG = Logger.getLogger(WorkerAnnouncer.class);
    private static final Duration LEAVING_TIMEOUT = Duration.ofSeconds(1);
    /** How often the partitions held are compared with the last announced. */
    static final Duration ASSIGNMENT_CHECK = Duration.ofSeconds(1);

    private final MutinyEmitter<WorkerHeartbeatEvent> emitter;
    private final Vertx vertx;
    private final String workerId;
    private final List<String> queues;
    private final List<String> types;
    private final Map<String, WorkerHeartbeatEvent.TypeDefaults> defaults;
    private final int capacity;
    private final Duration interval;
    private final Instant startedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private final OutOfOrderCommitHandlerFactory consumers;
    private volatile long timer = -1;
    private volatile long assignmentTimer = -1;
    private volatile Map<String, List<Integer>> announced = Map.of();

    @Inject
    public WorkerAnnouncer(@Channel(Channels.WORKER_HEARTBEATS_OUT) MutinyEmitter<WorkerHeartbeatEvent> emitter,
                           Vertx vertx, WorkerConfig config, HandlerRegistry handlers, WorkerIdentity identity,
                           OutOfOrderCommitHandlerFactory consumers) {
        this.emitter = emitter;
        this.consumers = consumers;
        this.vertx = vertx;
        this.workerId = identity.id();
        this.queues = List.copyOf(config.queues());
        this.types = handlers.types().stream().map(JobType::name).toList();
        this.defaults = handlers.declaredDefaults();
        this.capacity = config.maxInFlight();
        this.interval = config.heartbeatInterval();
        String problem = EventRules.problem(heartbeat(false));
        if (problem != null) {
            throw new IllegalStateException("this worker cannot announce itself: " + problem
                    + " (jobweaver.worker.queues, its handlers' types, jobweaver.worker.max-in-flight,"
                    + " jobweaver.worker.heartbeat-interval)");
        }
    }

    /** What this worker announces now. */
    WorkerHeartbeatEvent heartbeat(boolean leaving) {
        return new WorkerHeartbeatEvent(workerId, queues, types, capacity, interval.toMillis(), startedAt,
                Instant.now().truncatedTo(ChronoUnit.MILLIS), leaving, partitions(), defaults);
    }

    /** Per queue served, the partitions of its run topic this worker's consumers hold now, in order. */
    Map<String, List<Integer>> partitions() {
        if (consumers == null) {
            return Map.of();
        }
        Map<String, SortedSet<Integer>> held = new TreeMap<>();
        for (OutOfOrderCommitHandler consumer : consumers.handlers()) {
            for (TopicPartition partition : consumer.assigned()) {
                String queue = Topics.queueOf(partition.topic());
                if (queue != null && queues.contains(queue)) {
                    held.computeIfAbsent(queue, q -> new TreeSet<>()).add(partition.partition());
                }
            }
        }
        Map<String, List<Integer>> partitions = new TreeMap<>();
        held.forEach((queue, numbers) -> partitions.put(queue, List.copyOf(numbers)));
        return Map.copyOf(partitions);
    }

    void start(@Observes StartupEvent started) {
        send(false).subscribe().with(ignored -> { }, e -> LOG.warnf("first heartbeat not sent: %s", e.getMessage()));
        timer = vertx.setPeriodic(interval.toMillis(), id -> send(false).subscribe().with(ignored -> { },
                e -> LOG.debugf("a heartbeat was not sent: %s", e.getMessage())));
        assignmentTimer = vertx.setPeriodic(ASSIGNMENT_CHECK.toMillis(), id -> {
            if (!partitions().equals(announced)) {
                send(false).subscribe().with(ignored -> { },
                        e -> LOG.debugf("a heartbeat was not sent: %s", e.getMessage()));
            }
        });
        LOG.infof("worker %s serves queues %s with job types %s", workerId, queues, types);
    }

    void stop(@Observes @Priority(0) ShutdownEvent stopping) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        if (assignmentTimer >= 0) {
            vertx.cancelTimer(assignmentTimer);
        }
        try {
            send(true).await().atMost(LEAVING_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.debugf("the leaving heartbeat was not acknowledged in %s: %s", LEAVING_TIMEOUT, e.getMessage());
        }
    }

    private Uni<Void> send(boolean leaving) {
        WorkerHeartbeatEvent event = heartbeat(leaving);
        announced = event.partitions();
        return emitter.sendMessage(Message.of(event).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withKey(workerId).build()));
    }
}
