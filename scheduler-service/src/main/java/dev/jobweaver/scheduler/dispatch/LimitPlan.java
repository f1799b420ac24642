package dev.jobweaver.scheduler.dispatch;

import dev.jobweaver.scheduler.job.store.JobClaims.Candidate;
import dev.jobweaver.scheduler.job.store.JobClaims.Running;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;

/**
 * Which due jobs a claim under concurrency limits takes: in the claim's order, each job whose every limit (global,
 * tenant, job type, queue, workflow, and the in-flight limit) still has room once the jobs taken before it are counted.
 * Pure; built from the counts read under the claim lock, so that what it picks never takes a key past its limit.
 */
final class LimitPlan {

    private final OptionalInt global;
    private final Map<String, Integer> typeLimits;
    private final Map<String, Integer> tenantLimits;
    private final Map<String, Integer> queueLimits;
    private final Map<String, Long> byTenant = new HashMap<>();
    private final Map<String, Long> byType = new HashMap<>();
    private final Map<String, Long> byQueue = new HashMap<>();
    private final Map<UUID, Long> byWorkflow = new HashMap<>();
    /** Each running workflow's smallest limit among its running jobs' (a workflow's limit may have changed). */
    private final Map<UUID, Integer> workflowLimits = new HashMap<>();
    private final int room;

    /**
     * @param batch       most jobs the claim takes
     * @param maxInFlight most jobs {@code RUNNING} at once over all replicas; 0 or less: none
     * @param global      most jobs {@code RUNNING} at once, a limit never exceeded
     * @param typeLimits  by job type name
     * @param tenantLimits by tenant
     * @param running     the jobs {@code RUNNING} now, by key
     */
    public LimitPlan(int batch, int maxInFlight, OptionalInt global, Map<String, Integer> typeLimits,
                     Map<String, Integer> tenantLimits, List<Running> running) {
        this(batch, maxInFlight, global, typeLimits, Map.of(), tenantLimits, running);
    }

    /**
     * As above, with limits by queue name too.
     *
     * @param queueLimits by queue name
     */
    public LimitPlan(int batch, int maxInFlight, OptionalInt global, Map<String, Integer> typeLimits,
                     Map<String, Integer> queueLimits, Map<String, Integer> tenantLimits, List<Running> running) {
        this.global = global;
        this.typeLimits = typeLimits;
        this.queueLimits = queueLimits;
        this.tenantLimits = tenantLimits;
        long total = 0;
        for (Running r : running) {
            total += r.count();
            byTenant.merge(r.tenant(), r.count(), Long::sum);
            byType.merge(r.jobType(), r.count(), Long::sum);
            byQueue.merge(r.queue(), r.count(), Long::sum);
            if (r.workflowId() != null) {
                byWorkflow.merge(r.workflowId(), r.count(), Long::sum);
                if (r.workflowMax() != null) {
                    workflowLimits.merge(r.workflowId(), r.workflowMax(), Math::min);
                }
            }
        }
        long free = batch;
        if (maxInFlight > 0) {
            free = Math.min(free, maxInFlight - total);
        }
        if (global.isPresent()) {
            free = Math.min(free, global.getAsInt() - total);
        }
        this.room = (int) Math.max(0, free);
    }

    /** How many jobs the claim may take at most, all keys aside. */
    public int room() {
        return room;
    }

    /** The tenants at or over their limit: the claim need not read their jobs. */
    public Set<String> saturatedTenants() {
        return saturated(tenantLimits, byTenant);
    }

    /** The job types at or over their limit. */
    public Set<String> saturatedTypes() {
        return saturated(typeLimits, byType);
    }

    /** The queues at or over their limit. */
    public Set<String> saturatedQueues() {
        return saturated(queueLimits, byQueue);
    }

    /** The workflows at or over their limit. */
    public Set<UUID> saturatedWorkflows() {
        return saturated(workflowLimits, byWorkflow);
    }

    /** The keys of {@code limits} whose running count is at or over their limit. */
    private static <K> Set<K> saturated(Map<K, Integer> limits, Map<K, Long> running) {
        Set<K> saturated = new HashSet<>();
        limits.forEach((key, max) -> {
            if (running.getOrDefault(key, 0L) >= max) {
                saturated.add(key);
            }
        });
        return saturated;
    }

    /** The ids of the candidates taken, in their order: greedily, each while all its keys and the room allow. */
    public List<UUID> pick(List<Candidate> candidates) {
        Map<String, Long> tenants = new HashMap<>(byTenant);
        Map<String, Long> types = new HashMap<>(byType);
        Map<String, Long> queues = new HashMap<>(byQueue);
        Map<UUID, Long> workflows = new HashMap<>(byWorkflow);
        List<UUID> picked = new ArrayList<>(Math.min(room, candidates.size()));
        for (Candidate c : candidates) {
            if (picked.size() >= room) {
                break;
            }
            if (!hasRoom(tenants, c.tenant(), tenantLimits.get(c.tenant()))
                    || !hasRoom(types, c.jobType(), typeLimits.get(c.jobType()))
                    || !hasRoom(queues, c.queue(), queueLimits.get(c.queue()))
                    || c.workflowId() != null && !hasRoom(workflows, c.workflowId(), workflowLimit(c))) {
                continue;
            }
            picked.add(c.jobId());
            tenants.merge(c.tenant(), 1L, Long::sum);
            types.merge(c.jobType(), 1L, Long::sum);
            queues.merge(c.queue(), 1L, Long::sum);
            if (c.workflowId() != null) {
                workflows.merge(c.workflowId(), 1L, Long::sum);
            }
        }
        return picked;
    }

    /** The smaller of the candidate's workflow limit and that of its workflow's running jobs; null: none. */
    private Integer workflowLimit(Candidate c) {
        Integer running = workflowLimits.get(c.workflowId());
        if (c.workflowMax() == null) {
            return running;
        }
        return running == null ? c.workflowMax() : Math.min(running, c.workflowMax());
    }

    private static <K> boolean hasRoom(Map<K, Long> counts, K key, Integer max) {
        return max == null || counts.getOrDefault(key, 0L) < max;
    }
}
