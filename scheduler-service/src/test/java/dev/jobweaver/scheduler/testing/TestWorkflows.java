package dev.jobweaver.scheduler.testing;

import static dev.jobweaver.scheduler.testing.Waits.TIMEOUT;

import org.awaitility.Awaitility;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.event.WorkflowProgressEvent;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.job.JobOrigin;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowNode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Stands in for the API's side of workflows: publishes starts and cancels on {@code workflow-runs}, follows
 * {@code workflow-progress}, and for each ready node of a run it started publishes the node's job on
 * {@code job-created} as the API does (id {@code JobIds.forNode}, a workflow origin, the run's input and the
 * dependencies' results in the payload). Records every progress event of its runs.
 */
public final class TestWorkflows implements AutoCloseable {

    private final TestProducer producer;
    private final ObjectMapper mapper;
    private final Set<UUID> runs = ConcurrentHashMap.newKeySet();
    private final Map<UUID, UUID> workflowOf = new ConcurrentHashMap<>();
    private final List<WorkflowProgressEvent> events = new CopyOnWriteArrayList<>();
    private final List<JobCreatedEvent> made = new CopyOnWriteArrayList<>();
    private final AtomicBoolean makeJobs = new AtomicBoolean(true);
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread poller;

    public TestWorkflows(String bootstrapServers, TestProducer producer, ObjectMapper mapper) {
        this.producer = producer;
        this.mapper = mapper;
        KafkaConsumer<String, byte[]> consumer = TopicRecorder.fromNow(bootstrapServers,
                List.of(Topics.WORKFLOW_PROGRESS));
        poller = Thread.ofPlatform().daemon().name("test-workflows").start(() -> {
            try (consumer) {
                while (!stop.get()) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                        onProgress(record);
                    }
                }
            }
        });
    }

    /** A graph node: {@code id} depending on {@code dependsOn}. */
    public static WorkflowNode node(String id, String... dependsOn) {
        return new WorkflowNode(id, List.of(dependsOn));
    }

    /** Starts a run of {@code nodes}; its runId. */
    public UUID start(OnFailure onFailure, List<WorkflowNode> nodes) {
        UUID runId = UUID.randomUUID();
        start(runId, onFailure, nodes);
        return runId;
    }

    /** Publishes the START of run {@code runId}. */
    public void start(UUID runId, OnFailure onFailure, List<WorkflowNode> nodes) {
        startScheduled(runId, null, onFailure, nodes);
    }

    /** Publishes the START of run {@code runId}, started by the schedule {@code scheduleId} (or by none: null). */
    public void startScheduled(UUID runId, UUID scheduleId, OnFailure onFailure, List<WorkflowNode> nodes) {
        runs.add(runId);
        UUID workflowId = workflowOf.computeIfAbsent(runId, id -> UUID.randomUUID());
        producer.sendJson(Topics.WORKFLOW_RUNS, runId, WorkflowRunEvent.start(runId, workflowId, 1, "default",
                onFailure, null, nodes, TestJobs.traceId(runId), null, Instant.now(), scheduleId));
    }

    /** Records the progress of {@code runId}, a run started by the test itself. */
    public void track(UUID runId) {
        runs.add(runId);
    }

    /** Publishes the CANCEL of run {@code runId}. */
    public void cancel(UUID runId) {
        runs.add(runId);
        producer.sendJson(Topics.WORKFLOW_RUNS, runId, WorkflowRunEvent.cancel(runId, Instant.now()));
    }

    /** Publishes the RETRY of run {@code runId} from its end reported at progress version {@code version}. */
    public void retry(UUID runId, long version) {
        runs.add(runId);
        producer.sendJson(Topics.WORKFLOW_RUNS, runId, WorkflowRunEvent.retry(runId, version, Instant.now()));
    }

    /** Whether ready nodes get their jobs (as the API makes them); on by default. */
    public void makeJobs(boolean on) {
        makeJobs.set(on);
    }

    /** The progress events of {@code runId} so far, by version (duplicates kept). */
    public List<WorkflowProgressEvent> events(UUID runId) {
        return events.stream().filter(e -> e.runId().equals(runId))
                .sorted(Comparator.comparingLong(WorkflowProgressEvent::version)).toList();
    }

    /** Waits until an event of {@code runId} matches {@code condition}; returns it. */
    public WorkflowProgressEvent await(UUID runId, Predicate<WorkflowProgressEvent> condition) {
        Awaitility.await().atMost(TIMEOUT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .until(() -> events(runId).stream().anyMatch(condition));
        return events(runId).stream().filter(condition).findFirst().orElseThrow();
    }

    /** The latest event of {@code runId}, once it has at least {@code version}. */
    public WorkflowProgressEvent awaitVersion(UUID runId, long version) {
        await(runId, e -> e.version() >= version);
        return events(runId).getLast();
    }

    /** The node's jobs made so far (one per ready event naming it). */
    public List<JobCreatedEvent> made(UUID jobId) {
        return made.stream().filter(j -> j.jobId().equals(jobId)).toList();
    }

    /** The ready entries of {@code nodeId} in the events of {@code runId}. */
    public List<WorkflowProgressEvent.ReadyNode> readyOf(UUID runId, String nodeId) {
        List<WorkflowProgressEvent.ReadyNode> ready = new ArrayList<>();
        events(runId).forEach(e -> e.ready().stream().filter(r -> r.nodeId().equals(nodeId)).forEach(ready::add));
        return ready;
    }

    /** The status of {@code nodeId} in {@code event}. */
    public static WorkflowProgressEvent.Node nodeIn(WorkflowProgressEvent event, String nodeId) {
        return event.nodes().stream().filter(n -> n.id().equals(nodeId)).findFirst()
                .orElseThrow(() -> new AssertionError("no node " + nodeId + " in " + event));
    }

    private void onProgress(ConsumerRecord<String, byte[]> record) {
        WorkflowProgressEvent event;
        try {
            event = mapper.readValue(record.value(), WorkflowProgressEvent.class);
        } catch (IOException e) {
            return;
        }
        if (!runs.contains(event.runId())) {
            return;
        }
        events.add(event);
        if (!makeJobs.get()) {
            return;
        }
        for (WorkflowProgressEvent.ReadyNode ready : event.ready()) {
            ObjectNode payload = (ObjectNode) Payloads.tree(new JobPayload(List.of(new Step.Log(ready.nodeId()))));
            payload.set(Payloads.INPUT, mapper.createObjectNode().put("run", event.runId().toString()));
            payload.set(Payloads.RESULTS, mapper.valueToTree(ready.results()));
            JobCreatedEvent job = new JobCreatedEvent(ready.jobId(), JobType.SIMULATION, payload, 0,
                    TestJobs.traceId(event.runId()), Instant.now(), null,
                    JobOrigin.node(event.workflowId(), event.runId(), ready.nodeId(), null));
            made.add(job);
            producer.sendJson(Topics.JOB_CREATED, ready.jobId(), job);
        }
    }

    /** A result as a worker reports it. */
    public JsonNode result(String text) {
        return mapper.createObjectNode().put("from", text);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        poller.join(5_000);
    }
}
