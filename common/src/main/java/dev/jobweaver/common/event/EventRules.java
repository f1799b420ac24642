package dev.jobweaver.common.event;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobControlRules;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Results;
import dev.jobweaver.common.job.StepRules;
import dev.jobweaver.common.schedule.ScheduleClock;
import dev.jobweaver.common.workflow.WorkflowGraph;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a consumed event must hold before any of it reaches SQL or a worker: required fields, numbers in range,
 * strings within their columns, instants a database can store, steps within {@link StepRules.Limits#CEILINGS}. Each
 * method returns the first rule broken, naming the field, or null for a usable event; a consumer quarantines an event
 * that breaks one.
 */
public final class EventRules {

    /** The longest error message an outcome or a status may carry (the worker cuts its messages shorter). */
    public static final int MAX_ERROR_LENGTH = 8192;
    /** The longest worker id ({@code execution_attempts.worker_id}). */
    public static final int MAX_WORKER_ID_LENGTH = 200;
    /** The highest attempt number an event may name. */
    public static final int MAX_ATTEMPT = 10_000;
    /** The earliest instant an event may carry. */
    static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
    /** The latest instant an event may carry. */
    static final Instant LATEST = Instant.parse("2200-01-01T00:00:00Z");

    private EventRules() {
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(JobCreatedEvent e) {
        List<String> out = new ArrayList<>();
        require("jobId", e.jobId(), out);
        require("jobType", e.jobType(), out);
        range("maxRetries", e.maxRetries(), 0, StepRules.Limits.CEILINGS.maxRetryCount(), out);
        traceId(e.traceId(), out);
        instant("createdAt", e.createdAt(), out);
        payload(e.jobType(), e.payload(), out);
        JobControlRules.check(e.control(), e.createdAt(), out);
        if (e.origin() != null && e.origin().workflowRunId() == null) {
            require("origin.scheduleId", e.origin().scheduleId(), out);
            require("origin.scheduledFor", e.origin().scheduledFor(), out);
            instant("origin.scheduledFor", e.origin().scheduledFor(), out);
        } else if (e.origin() != null) {
            // A workflow node's job: its run and node, never a schedule's tick as well.
            require("origin.workflowId", e.origin().workflowId(), out);
            require("origin.nodeId", e.origin().nodeId(), out);
            if (e.origin().nodeId() != null && !WorkflowGraph.NODE_ID.matcher(e.origin().nodeId()).matches()) {
                out.add("origin.nodeId must match " + WorkflowGraph.NODE_ID.pattern());
            }
            if (e.origin().scheduleId() != null || e.origin().scheduledFor() != null) {
                out.add("origin names a schedule's tick and a workflow's node; a job has one origin");
            }
            if (e.origin().workflowMaxConcurrency() != null && e.origin().workflowMaxConcurrency() < 1) {
                out.add("origin.workflowMaxConcurrency must be at least 1, got "
                        + e.origin().workflowMaxConcurrency());
            }
        }
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(TenantLimitEvent e) {
        List<String> out = new ArrayList<>();
        require("tenant", e.tenant(), out);
        if (e.tenant() != null && !dev.jobweaver.common.job.JobControlRules.TENANT.matcher(e.tenant()).matches()) {
            out.add("tenant must match " + dev.jobweaver.common.job.JobControlRules.TENANT.pattern() + ", got "
                    + describe(e.tenant()));
        }
        range("version", e.version(), 1, Long.MAX_VALUE, out);
        if (e.maxRunning() != null) {
            range("maxRunning", e.maxRunning(), 1, TenantLimitEvent.MAX_RUNNING, out);
        }
        require("changedAt", e.changedAt(), out);
        instant("changedAt", e.changedAt(), out);
        return first(out);
    }

    /** Why a {@code tenant-limits} record's key does not fit its event, or null: it must be the tenant. */
    public static String tenantLimitKeyProblem(String key, String tenant) {
        if (tenant == null || tenant.equals(key)) {
            return null;
        }
        return key == null ? "the record has no key; it must be keyed by its tenant " + tenant
                : "the record's key must be its tenant " + tenant + ", got " + describe(key);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(WorkerHeartbeatEvent e) {
        List<String> out = new ArrayList<>();
        require("workerId", e.workerId(), out);
        if (e.workerId() != null && e.workerId().isBlank()) {
            out.add("workerId must not be blank");
        }
        length("workerId", e.workerId(), MAX_WORKER_ID_LENGTH, out);
        names("queues", e.queues(), WorkerHeartbeatEvent.MAX_QUEUES, q -> JobControlRules.QUEUE.matcher(q).matches(),
                "[a-z0-9][a-z0-9-]{0,62}", out);
        names("types", e.types(), WorkerHeartbeatEvent.MAX_TYPES, JobType::isValid, JobType.PATTERN, out);
        range("capacity", e.capacity(), 1, WorkerHeartbeatEvent.MAX_CAPACITY, out);
        range("intervalMs", e.intervalMs(), WorkerHeartbeatEvent.MIN_INTERVAL_MS, WorkerHeartbeatEvent.MAX_INTERVAL_MS,
                out);
        require("startedAt", e.startedAt(), out);
        instant("startedAt", e.startedAt(), out);
        require("sentAt", e.sentAt(), out);
        instant("sentAt", e.sentAt(), out);
        partitions(e, out);
        defaults(e, out);
        return first(out);
    }

    /** A heartbeat's defaults: of its own types only, each within the bounds of a job's own fields. */
    private static void defaults(WorkerHeartbeatEvent e, List<String> out) {
        if (e.defaults() == null) {
            return;
        }
        for (Map.Entry<String, WorkerHeartbeatEvent.TypeDefaults> entry : e.defaults().entrySet()) {
            String type = entry.getKey();
            if (e.types() == null || !e.types().contains(type)) {
                out.add("defaults names type " + describe(String.valueOf(type)) + ", which the worker does not run");
                return;
            }
            WorkerHeartbeatEvent.TypeDefaults d = entry.getValue();
            if (d == null) {
                out.add("defaults." + type + " must be an object, got null");
                return;
            }
            List<String> problems = new ArrayList<>();
            JobControlRules.check(new JobControl(d.priority(), null, d.timeoutMs(),
                    d.retryDelaysMs(), null, null), null, problems);
            if (!problems.isEmpty()) {
                out.add("defaults." + type + "." + problems.getFirst());
                return;
            }
        }
    }

    /** A heartbeat's partitions: of its own queues only, each a partition number, {@code MAX_PARTITIONS} at most. */
    private static void partitions(WorkerHeartbeatEvent e, List<String> out) {
        if (e.partitions() == null) {
            return;
        }
        int count = 0;
        for (Map.Entry<String, List<Integer>> entry : e.partitions().entrySet()) {
            if (e.queues() == null || !e.queues().contains(entry.getKey())) {
                out.add("partitions names queue " + describe(String.valueOf(entry.getKey()))
                        + ", which the worker does not serve");
                return;
            }
            if (entry.getValue() == null) {
                out.add("partitions." + entry.getKey() + " must be a list of partitions, got null");
                return;
            }
            for (Integer partition : entry.getValue()) {
                if (partition == null || partition < 0) {
                    out.add("partitions." + entry.getKey() + " must hold partition numbers (0 or more), got "
                            + partition);
                    return;
                }
            }
            count += entry.getValue().size();
        }
        if (count > WorkerHeartbeatEvent.MAX_PARTITIONS) {
            out.add("partitions must name at most " + WorkerHeartbeatEvent.MAX_PARTITIONS + " partitions, got "
                    + count);
        }
    }

    /** Why a {@code worker-heartbeats} record's key does not fit its event, or null: it must be the workerId. */
    public static String workerKeyProblem(String key, String workerId) {
        if (workerId == null || workerId.equals(key)) {
            return null;
        }
        return key == null ? "the record has no key; it must be keyed by its workerId " + workerId
                : "the record's key must be its workerId " + workerId + ", got " + describe(key);
    }

    /** A list of 1 to {@code max} names, each {@code valid} (shown as {@code pattern}), none twice. */
    private static void names(String field, List<String> names, int max, java.util.function.Predicate<String> valid,
                              String pattern, List<String> out) {
        if (names == null || names.isEmpty() || names.size() > max) {
            out.add(field + " must hold 1 to " + max + " names, got " + (names == null ? "none" : names.size()));
            return;
        }
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            if (name == null || !valid.test(name)) {
                out.add(field + "[" + i + "] must match " + pattern + ", got " + (name == null ? "null" : describe(name)));
                return;
            }
        }
        if (new java.util.HashSet<>(names).size() < names.size()) {
            out.add(field + " must not name one twice");
        }
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(ScheduleEvent e) {
        List<String> out = new ArrayList<>();
        require("scheduleId", e.scheduleId(), out);
        range("version", e.version(), 1, Long.MAX_VALUE, out);
        require("misfire", e.misfire(), out);
        require("overlap", e.overlap(), out);
        require("tenant", e.tenant(), out);
        instant("anchor", e.anchor(), out);
        instant("changedAt", e.changedAt(), out);
        if (out.isEmpty()) {
            try {
                ScheduleClock.of(e.cron(), e.interval(), e.timezone(), e.anchor() == null ? Instant.EPOCH : e.anchor());
            } catch (IllegalArgumentException bad) {
                out.add(bad.getMessage());
            }
            if (e.interval() != null && e.anchor() == null) {
                out.add("anchor is required with an interval");
            }
        }
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(ScheduleFiredEvent e) {
        List<String> out = new ArrayList<>();
        require("scheduleId", e.scheduleId(), out);
        range("scheduleVersion", e.scheduleVersion(), 1, Long.MAX_VALUE, out);
        require("jobId", e.jobId(), out);
        require("scheduledFor", e.scheduledFor(), out);
        instant("scheduledFor", e.scheduledFor(), out);
        require("firedAt", e.firedAt(), out);
        instant("firedAt", e.firedAt(), out);
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(RunJobEvent e) {
        List<String> out = new ArrayList<>();
        require("eventId", e.eventId(), out);
        require("jobId", e.jobId(), out);
        range("attempt", e.attempt(), 1, MAX_ATTEMPT, out);
        require("jobType", e.jobType(), out);
        traceId(e.traceId(), out);
        instant("createdAt", e.createdAt(), out);
        instant("dispatchedAt", e.dispatchedAt(), out);
        instant("leaseUntil", e.leaseUntil(), out);
        payload(e.jobType(), e.payload(), out);
        JobControlRules.check(e.control(), e.createdAt(), out);
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(JobCompletedEvent e) {
        List<String> out = new ArrayList<>();
        require("jobId", e.jobId(), out);
        range("attempt", e.attempt(), 1, MAX_ATTEMPT, out);
        traceId(e.traceId(), out);
        instant("startedAt", e.startedAt(), out);
        instant("finishedAt", e.finishedAt(), out);
        length("workerId", e.workerId(), MAX_WORKER_ID_LENGTH, out);
        result(e.result(), out);
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(JobFailedEvent e) {
        List<String> out = new ArrayList<>();
        require("jobId", e.jobId(), out);
        range("attempt", e.attempt(), 1, MAX_ATTEMPT, out);
        traceId(e.traceId(), out);
        length("errorMessage", e.errorMessage(), MAX_ERROR_LENGTH, out);
        instant("startedAt", e.startedAt(), out);
        instant("failedAt", e.failedAt(), out);
        length("workerId", e.workerId(), MAX_WORKER_ID_LENGTH, out);
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(JobStatusChangedEvent e) {
        List<String> out = new ArrayList<>();
        require("jobId", e.jobId(), out);
        require("status", e.status(), out);
        if (e.version() < 1) {
            out.add("version must be 1 or more, got " + e.version());
        }
        range("attempts", e.attempts(), 0, MAX_ATTEMPT, out);
        range("retryCount", e.retryCount(), 0, MAX_ATTEMPT, out);
        range("maxRetries", e.maxRetries(), 0, StepRules.Limits.CEILINGS.maxRetryCount(), out);
        length("lastError", e.lastError(), MAX_ERROR_LENGTH, out);
        traceId(e.traceId(), out);
        instant("nextRunAt", e.nextRunAt(), out);
        instant("changedAt", e.changedAt(), out);
        instant("startedAt", e.startedAt(), out);
        instant("finishedAt", e.finishedAt(), out);
        result(e.result(), out);
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(DeadLetterEvent e) {
        List<String> out = new ArrayList<>();
        require("jobId", e.jobId(), out);
        length("reason", e.reason(), MAX_ERROR_LENGTH, out);
        range("finalRetryCount", e.finalRetryCount(), 0, MAX_ATTEMPT - 1, out);
        require("failedAt", e.failedAt(), out);
        instant("failedAt", e.failedAt(), out);
        traceId(e.traceId(), out);
        if (e.tenant() != null && !JobControlRules.TENANT.matcher(e.tenant()).matches()) {
            out.add("tenant must match " + JobControlRules.TENANT.pattern() + ", got " + describe(e.tenant()));
        }
        if (e.labels() != null) {
            if (e.labels().size() > JobControlRules.MAX_LABELS) {
                out.add("labels must hold at most " + JobControlRules.MAX_LABELS + " pairs, got " + e.labels().size());
            }
            e.labels().forEach((key, value) -> {
                if (key == null || !JobControlRules.LABEL_KEY.matcher(key).matches()) {
                    out.add("labels key must match " + JobControlRules.LABEL_KEY.pattern() + ", got "
                            + (key == null ? "null" : describe(key)));
                } else {
                    require("labels." + key, value, out);
                    length("labels." + key, value, JobControlRules.MAX_LABEL_VALUE, out);
                }
            });
        }
        return first(out);
    }

    /** The first rule {@code e} breaks, or null. */
    public static String problem(JobCommandEvent e) {
        List<String> out = new ArrayList<>();
        require("jobId", e.jobId(), out);
        require("command", e.command(), out);
        traceId(e.traceId(), out);
        require("requestedAt", e.requestedAt(), out);
        instant("requestedAt", e.requestedAt(), out);
        if (e.command() != null && e.command() != JobCommand.REQUEUE
                && (e.payload() != null || e.maxRetryCount() != null || e.failedAt() != null)) {
            out.add("payload, maxRetryCount and failedAt belong to a REQUEUE only, got them with " + e.command());
        }
        instant("failedAt", e.failedAt(), out);
        if (e.maxRetryCount() != null
                && (e.maxRetryCount() < 0 || e.maxRetryCount() > JobCommandEvent.MAX_RETRY_COUNT)) {
            out.add("maxRetryCount must be between 0 and " + JobCommandEvent.MAX_RETRY_COUNT + ", got "
                    + e.maxRetryCount());
        }
        if (e.payload() != null && !e.payload().isObject()) {
            out.add("payload must be a JSON object, got " + e.payload().getNodeType());
        }
        if (e.jobIds() != null) {
            purgedJobs(e, out);
        }
        return first(out);
    }

    private static void purgedJobs(JobCommandEvent e, List<String> out) {
        if (e.command() != null && e.command() != JobCommand.PURGE) {
            out.add("jobIds belongs to a PURGE only, got it with " + e.command());
        } else if (e.jobIds().isEmpty()) {
            out.add("jobIds must name at least one job, or be absent");
        } else if (e.jobIds().size() > JobCommandEvent.MAX_PURGED_JOBS) {
            out.add("jobIds names at most " + JobCommandEvent.MAX_PURGED_JOBS + " jobs, got " + e.jobIds().size());
        } else if (e.jobIds().stream().anyMatch(Objects::isNull)) {
            out.add("jobIds must not contain null");
        } else if (e.jobId() != null && !e.jobIds().contains(e.jobId())) {
            out.add("jobIds must contain the command's jobId " + e.jobId());
        }
    }

    /**
     * What is wrong with a record's key, or null: the topics about one job are keyed by the jobId, which keeps a job's
     * records in one partition, in order; the schedule topics by the scheduleId, the same way.
     */
    public static String keyProblem(String key, java.util.UUID jobId) {
        if (jobId == null || jobId.toString().equals(key)) {
            return null;
        }
        return key == null ? "the record has no key; it must be keyed by its jobId " + jobId
                : "the record's key must be its jobId " + jobId + ", got " + describe(key);
    }

    /** What is wrong with the key of a record on a schedule topic, or null: it must be the scheduleId. */
    public static String scheduleKeyProblem(String key, java.util.UUID scheduleId) {
        if (scheduleId == null || scheduleId.toString().equals(key)) {
            return null;
        }
        return key == null ? "the record has no key; it must be keyed by its scheduleId " + scheduleId
                : "the record's key must be its scheduleId " + scheduleId + ", got " + describe(key);
    }

    /** Whether {@code traceId} is absent or a W3C trace id: 32 lower-case hex characters, not all zero. */
    public static boolean isTraceId(String traceId) {
        if (traceId == null) {
            return true;
        }
        if (traceId.length() != 32) {
            return false;
        }
        boolean nonZero = false;
        for (int i = 0; i < 32; i++) {
            char c = traceId.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
            nonZero |= c != '0';
        }
        return nonZero;
    }

    private static void traceId(String traceId, List<String> out) {
        if (!isTraceId(traceId)) {
            out.add("traceId must be 32 lower-case hex characters, got " + describe(traceId));
        }
    }

    private static void payload(JobType type, JsonNode payload, List<String> out) {
        Payloads.check(type, payload, StepRules.Limits.CEILINGS, out, 1);
    }

    private static void result(JsonNode result, List<String> out) {
        if (result != null && Results.tooLarge(result)) {
            out.add("result must be at most " + Results.MAX_BYTES + " bytes of JSON");
        }
    }

    private static void require(String field, Object value, List<String> out) {
        if (value == null) {
            out.add(field + " is required");
        }
    }

    private static void range(String field, long value, long min, long max, List<String> out) {
        if (value < min || value > max) {
            out.add(field + " must be between " + min + " and " + max + ", got " + value);
        }
    }

    private static void length(String field, String value, int max, List<String> out) {
        if (value != null && value.length() > max) {
            out.add(field + " must be at most " + max + " characters, got " + value.length());
        } else if (StepRules.hasNul(value)) {
            out.add(field + " must not contain the NUL character (U+0000), which the database cannot store");
        }
    }

    private static void instant(String field, Instant value, List<String> out) {
        if (value != null && (value.isBefore(EARLIEST) || value.isAfter(LATEST))) {
            out.add(field + " must be between " + EARLIEST + " and " + LATEST + ", got " + value);
        }
    }

    private static String describe(String value) {
        return value.length() > 40 ? value.length() + " characters" : "'" + value + "'";
    }

    private static String first(List<String> out) {
        return out.isEmpty() ? null : out.get(0);
    }
}
