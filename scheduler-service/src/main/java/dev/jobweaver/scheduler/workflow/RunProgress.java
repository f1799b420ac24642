package dev.jobweaver.scheduler.workflow;

import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The rules of a run's progress, applied in memory to a run and its nodes as one transaction read them (locked): what
 * a job's end, a cancel or a start changes, which nodes became ready and which jobs must be cancelled. Pure: the
 * caller writes the changes and publishes them.
 *
 * <ul>
 *   <li>A node's job ended: the node takes the job's end ({@code COMPLETED}, {@code FAILED}, {@code CANCELLED}), if
 *       neither it nor its run has ended. On {@code COMPLETED}, each {@code WAITING} dependent whose dependencies all
 *       completed becomes {@code PENDING} and ready. A failed or cancelled node is a failure of the run:
 *       {@code FAIL_FAST} cancels every node that has not ended (the jobs of those that were ready are cancelled);
 *       {@code CONTINUE} skips the {@code WAITING} nodes that depend on it, directly or not.</li>
 *   <li>The run ends when every node has: {@code COMPLETED} if every node completed, else {@code FAILED};
 *       a cancel ends it {@code CANCELLED} at once, every node that had not ended {@code CANCELLED}.</li>
 *   <li>Once the run has ended nothing changes it: a job that still ends (its cancel came too late) keeps its own
 *       status, its node keeps the one the run's end gave it. Only a retry or a node's requeue resumes it.</li>
 *   <li>A retry ({@link #retry}) of a run that ended {@code FAILED} or {@code CANCELLED}, from the end the client saw,
 *       runs its failed, cancelled and skipped nodes again: each that has a job waits for it again ({@code PENDING},
 *       its job requeued under its id), each that has none waits for its dependencies ({@code WAITING}) and is ready
 *       at once if they all completed; the run is {@code RUNNING} again, under the same runId.</li>
 *   <li>A node's job requeued ({@link #nodeRequeued}, its dead letter requeued by a client) resumes its node: the node
 *       waits for its job again, the dependents that its failure skipped or cancelled before they had a job wait
 *       again (those whose other dependencies have not failed), and an ended run is {@code RUNNING} again.</li>
 * </ul>
 * A node stays {@code PENDING} while its job waits, runs or waits for a retry: the scheduler reports nodes when they
 * become ready and when they end, and the job's own status tells the rest.
 *
 * <p>Not thread-safe: one instance per run per transaction.
 */
final class RunProgress {

    private WorkflowRun run;
    private final WorkflowRunStatus initialStatus;
    private final Map<String, RunNode> nodes = new LinkedHashMap<>();
    private final Map<String, List<String>> dependents = new LinkedHashMap<>();
    private final Set<String> changed = new LinkedHashSet<>();
    private final Set<String> ready = new LinkedHashSet<>();
    private final Set<UUID> jobsToCancel = new LinkedHashSet<>();
    private final Set<UUID> jobsToRequeue = new LinkedHashSet<>();
    private boolean runChanged;

    /** What a retry of the run did ({@link #retry}). */
    enum Retry {
        /** The run had ended FAILED or CANCELLED at the version named: its unfinished nodes run again. */
        RETRIED,
        /** The run has not ended, or ended COMPLETED, or is unknown: nothing changed. */
        NOT_RETRYABLE,
        /**
         * The run's current end is not the one named (it was retried, or resumed by a node's requeue, since): nothing
         * changed, so a retry delivered again retries once.
         */
        STALE
    }

    RunProgress(WorkflowRun run, List<RunNode> graph) {
        this.run = run;
        this.initialStatus = run.status();
        graph.forEach(n -> nodes.put(n.nodeId(), n));
        graph.forEach(n -> dependents.put(n.nodeId(), new ArrayList<>()));
        graph.forEach(n -> n.dependsOn().forEach(d -> dependents.computeIfAbsent(d, k -> new ArrayList<>())
                .add(n.nodeId())));
    }

    WorkflowRun run() {
        return run;
    }

    /** The run's status as it was read, before this change. */
    WorkflowRunStatus initialStatus() {
        return initialStatus;
    }

    /** The nodes in graph order, as changed so far. */
    List<RunNode> nodes() {
        return List.copyOf(nodes.values());
    }

    RunNode node(String nodeId) {
        return nodes.get(nodeId);
    }

    /** The nodes changed so far, in graph order. */
    List<RunNode> changedNodes() {
        return nodes.values().stream().filter(n -> changed.contains(n.nodeId())).toList();
    }

    /** The nodes that became ready and are still {@code PENDING}, in the order they became ready. */
    List<RunNode> ready() {
        return ready.stream().map(nodes::get).filter(n -> n.status() == NodeStatus.PENDING).toList();
    }

    /** The jobs of the nodes cancelled after they became ready. */
    Set<UUID> jobsToCancel() {
        return jobsToCancel;
    }

    /** The jobs of the nodes that run again under their own id: each is requeued ({@code job-commands}). */
    Set<UUID> jobsToRequeue() {
        return jobsToRequeue;
    }

    /** Whether anything changed: the run must then be written and its progress published. */
    boolean changed() {
        return runChanged || !changed.isEmpty();
    }

    /** A new run: its roots become ready. */
    void start(Instant now) {
        for (RunNode node : nodes.values()) {
            if (node.dependsOn().isEmpty() && node.status() == NodeStatus.WAITING) {
                markReady(node, now);
            }
        }
        runChanged = true;
        finishIfDone(now);
    }

    /**
     * The job of {@code nodeId} ended with {@code jobStatus} (a terminal job status); false when that changed nothing
     * (the run or the node had ended already).
     */
    boolean jobEnded(String nodeId, JobStatus jobStatus, Instant now) {
        RunNode node = nodes.get(nodeId);
        if (node == null || run.status().terminal() || node.status().terminal()) {
            return false;
        }
        NodeStatus end = switch (jobStatus) {
            case COMPLETED -> NodeStatus.COMPLETED;
            case FAILED, REJECTED -> NodeStatus.FAILED;
            case CANCELLED -> NodeStatus.CANCELLED;
            default -> throw new IllegalArgumentException("job status " + jobStatus + " is no end");
        };
        set(node.with(end, node.readyAt()));
        if (end == NodeStatus.COMPLETED) {
            for (String dependent : dependents.getOrDefault(nodeId, List.of())) {
                RunNode d = nodes.get(dependent);
                if (d.status() == NodeStatus.WAITING && d.dependsOn().stream()
                        .allMatch(dep -> nodes.get(dep).status() == NodeStatus.COMPLETED)) {
                    markReady(d, now);
                }
            }
        } else {
            failure(nodeId);
        }
        finishIfDone(now);
        return true;
    }

    /**
     * {@code nodeId}, ready, cannot get its job (its dependencies' results do not fit one record): it fails as if its
     * job had failed.
     */
    void nodeFailed(String nodeId, Instant now) {
        RunNode node = nodes.get(nodeId);
        if (node == null || run.status().terminal() || node.status().terminal()) {
            return;
        }
        // Its job was never asked for: the event names no job for it, and there is none to cancel.
        ready.remove(nodeId);
        set(node.with(NodeStatus.FAILED, null));
        failure(nodeId);
        finishIfDone(now);
    }

    /** A client cancelled the run; false when it had ended already. */
    boolean cancel(Instant now) {
        if (run.status().terminal()) {
            return false;
        }
        cancelUnfinished();
        run = run.with(WorkflowRunStatus.CANCELLED, run.progressVersion(), now);
        runChanged = true;
        return true;
    }

    /** The jobs of the nodes a retry would run again under their own id: those that ended unfinished with a job. */
    Set<UUID> jobsOfUnfinishedNodes() {
        Set<UUID> jobs = new LinkedHashSet<>();
        for (RunNode node : nodes.values()) {
            if (reruns(node) && node.readyAt() != null) {
                jobs.add(node.jobId());
            }
        }
        return jobs;
    }

    /**
     * A client retried the run from its end reported at {@code fromVersion}. Applies only when the run ended
     * {@code FAILED} or {@code CANCELLED} and that end is still its current one ({@link Retry#STALE} otherwise).
     * Every node that ended {@code FAILED}, {@code CANCELLED} or {@code SKIPPED} runs again: one whose job was asked
     * for waits for that job again ({@code PENDING}, its job in {@link #jobsToRequeue}), unless {@code jobStatuses}
     * shows the job {@code COMPLETED} (its cancel came too late: the node takes its result); one that never had a job
     * waits for its dependencies, and is ready at once when they all completed. The run is {@code RUNNING} again.
     *
     * @param jobStatuses the current status of the jobs of {@link #jobsOfUnfinishedNodes}, as the scheduler holds
     *     them; a job it does not hold yet is absent
     */
    Retry retry(long fromVersion, Map<UUID, JobStatus> jobStatuses, Instant now) {
        if (run.status() != WorkflowRunStatus.FAILED && run.status() != WorkflowRunStatus.CANCELLED) {
            return Retry.NOT_RETRYABLE;
        }
        if (run.progressVersion() != fromVersion) {
            return Retry.STALE;
        }
        run = run.with(WorkflowRunStatus.RUNNING, run.progressVersion(), null);
        runChanged = true;
        for (RunNode node : List.copyOf(nodes.values())) {
            if (!reruns(node)) {
                continue;
            }
            if (node.readyAt() == null) {
                set(node.with(NodeStatus.WAITING, null));
            } else if (jobStatuses.get(node.jobId()) == JobStatus.COMPLETED) {
                set(node.with(NodeStatus.COMPLETED, node.readyAt()));
            } else {
                set(node.with(NodeStatus.PENDING, node.readyAt()));
                jobsToRequeue.add(node.jobId());
            }
        }
        readyWaiting(now);
        finishIfDone(now);
        return Retry.RETRIED;
    }

    /**
     * The job of {@code nodeId} was requeued (a client requeued its dead letter) and runs again under its id: an
     * ended node waits for it again ({@code PENDING}), its dependents that its end skipped or cancelled before they
     * had a job wait again when none of their other dependencies failed, was cancelled or skipped (a fixpoint over
     * its descendants), and an ended run is {@code RUNNING} again. False when that changed nothing: the node has not
     * ended (a retry of its run made it wait for its job already), or completed, or is unknown.
     */
    boolean nodeRequeued(String nodeId, Instant now) {
        RunNode node = nodes.get(nodeId);
        if (node == null || !reruns(node)) {
            return false;
        }
        set(node.with(NodeStatus.PENDING, node.readyAt() != null ? node.readyAt() : now));
        Set<String> descendants = new LinkedHashSet<>();
        Deque<String> todo = new ArrayDeque<>(dependents.getOrDefault(nodeId, List.of()));
        while (!todo.isEmpty()) {
            String d = todo.pop();
            if (descendants.add(d)) {
                todo.addAll(dependents.getOrDefault(d, List.of()));
            }
        }
        boolean moved = true;
        while (moved) {
            moved = false;
            for (String id : descendants) {
                RunNode d = nodes.get(id);
                boolean blocked = d.status() == NodeStatus.SKIPPED
                        || d.status() == NodeStatus.CANCELLED && d.readyAt() == null;
                if (blocked && d.dependsOn().stream().noneMatch(dep -> failedEnd(nodes.get(dep).status()))) {
                    set(d.with(NodeStatus.WAITING, null));
                    moved = true;
                }
            }
        }
        if (run.status().terminal()) {
            run = run.with(WorkflowRunStatus.RUNNING, run.progressVersion(), null);
            runChanged = true;
        }
        readyWaiting(now);
        return true;
    }

    /** Takes the next progress version; the run must then be written with it. */
    long nextVersion() {
        run = run.with(run.status(), run.progressVersion() + 1, run.finishedAt());
        runChanged = true;
        return run.progressVersion();
    }

    private void failure(String nodeId) {
        if (run.onFailure() == OnFailure.CONTINUE) {
            Deque<String> todo = new ArrayDeque<>(dependents.getOrDefault(nodeId, List.of()));
            while (!todo.isEmpty()) {
                RunNode d = nodes.get(todo.pop());
                if (d.status() == NodeStatus.WAITING) {
                    set(d.with(NodeStatus.SKIPPED, null));
                    todo.addAll(dependents.getOrDefault(d.nodeId(), List.of()));
                }
            }
        } else {
            cancelUnfinished();
        }
    }

    private void cancelUnfinished() {
        for (RunNode node : List.copyOf(nodes.values())) {
            if (node.status().terminal()) {
                continue;
            }
            if (ready.remove(node.nodeId())) {
                // Made ready by this very change, which is not published as such: its job is never asked for.
                set(node.with(NodeStatus.CANCELLED, null));
            } else {
                if (node.readyAt() != null) {
                    jobsToCancel.add(node.jobId());
                }
                set(node.with(NodeStatus.CANCELLED, node.readyAt()));
            }
        }
    }

    private void finishIfDone(Instant now) {
        if (run.status().terminal() || !nodes.values().stream().allMatch(n -> n.status().terminal())) {
            return;
        }
        boolean allCompleted = nodes.values().stream().allMatch(n -> n.status() == NodeStatus.COMPLETED);
        run = run.with(allCompleted ? WorkflowRunStatus.COMPLETED : WorkflowRunStatus.FAILED, run.progressVersion(),
                now);
        runChanged = true;
    }

    /** Whether a retry runs {@code node} again: it ended without completing. */
    private static boolean reruns(RunNode node) {
        return node.status().terminal() && node.status() != NodeStatus.COMPLETED;
    }

    private static boolean failedEnd(NodeStatus status) {
        return status == NodeStatus.FAILED || status == NodeStatus.CANCELLED || status == NodeStatus.SKIPPED;
    }

    /** Makes ready every {@code WAITING} node whose dependencies all completed. */
    private void readyWaiting(Instant now) {
        for (RunNode node : List.copyOf(nodes.values())) {
            if (node.status() == NodeStatus.WAITING && node.dependsOn().stream()
                    .allMatch(dep -> nodes.get(dep).status() == NodeStatus.COMPLETED)) {
                markReady(node, now);
            }
        }
    }

    private void markReady(RunNode node, Instant now) {
        set(node.with(NodeStatus.PENDING, now));
        ready.add(node.nodeId());
    }

    private void set(RunNode node) {
        nodes.put(node.nodeId(), node);
        changed.add(node.nodeId());
    }
}
