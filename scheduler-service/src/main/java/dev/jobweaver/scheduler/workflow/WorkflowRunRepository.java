package dev.jobweaver.scheduler.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.common.batch.Columns;
import dev.jobweaver.common.job.JobStatus;
import dev.jobweaver.common.workflow.NodeStatus;
import dev.jobweaver.common.workflow.OnFailure;
import dev.jobweaver.common.workflow.WorkflowRunStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * SQL on {@code workflow_runs} and {@code workflow_run_nodes}, through the reactive PG client: the orchestration runs
 * inside the transactions that record jobs' ends (outcomes, cancels, lease expiry), which are that client's.
 *
 * <p>Methods taking a {@link SqlConnection} run inside the caller's transaction. Lock order, everywhere: a job's row
 * ({@code job_executions}) before its run's, runs in runId order; no statement here locks a job.
 */
@ApplicationScoped
public class WorkflowRunRepository {

    private static final String RUN_COLUMNS = "run_id, workflow_id, version, tenant, on_failure, max_concurrency,"
            + " status, progress_version, trace_id, traceparent, created_at, finished_at, schedule_id";

    private static final String INSERT_RUN = "INSERT INTO workflow_runs (" + RUN_COLUMNS + ", updated_at)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now())"
            + " ON CONFLICT (run_id) DO NOTHING RETURNING now() AS db_now";

    // A cancel kept before its START becomes the run, keeping its CANCELLED status and end.
    private static final String FILL_RUN = "UPDATE workflow_runs SET workflow_id = $2, version = $3, tenant = $4,"
            + " on_failure = $5, max_concurrency = $6, trace_id = $7, traceparent = $8, created_at = $9,"
            + " schedule_id = $10, updated_at = now() WHERE run_id = $1 AND workflow_id IS NULL";

    private static final String INSERT_NODES = "INSERT INTO workflow_run_nodes (run_id, node_id, ord, depends_on,"
            + " status, job_id, ready_at)"
            + " SELECT $1::uuid, u.node_id, u.ord, u.depends_on::text[], u.status, u.job_id, u.ready_at"
            + " FROM unnest($2::text[], $3::int4[], $4::text[], $5::text[], $6::uuid[], $7::timestamptz[])"
            + " AS u(node_id, ord, depends_on, status, job_id, ready_at)";

    // Ordered by run_id so that two transactions locking overlapping sets take their locks in the same order. The
    // now() row is there even when no run exists (MATERIALIZED: the locking CTE runs once, as written).
    private static final String LOCK_RUNS = "WITH locked AS MATERIALIZED (SELECT " + RUN_COLUMNS
            + " FROM workflow_runs WHERE run_id = ANY($1) ORDER BY run_id FOR UPDATE)"
            + " SELECT l.*, now() AS db_now FROM (SELECT 1) one LEFT JOIN locked l ON true";

    private static final String NODES_OF_RUNS = "SELECT run_id, node_id, ord, depends_on, status, job_id, ready_at"
            + " FROM workflow_run_nodes WHERE run_id = ANY($1) ORDER BY run_id, ord";

    private static final String NODES_OF_JOBS = "SELECT job_id, run_id, node_id FROM workflow_run_nodes"
            + " WHERE job_id = ANY($1)";

    // A node job must not run when its run has ended or its node was cancelled or skipped, or when its run is a cancel
    // kept before its START. A node still WAITING in a running run, or a run not stored at all, is no such case: a
    // transaction that Kafka acknowledged may not have committed yet, or rolled back and will be done again, and the
    // job is the node's either way.
    private static final String ORPHAN_JOBS = "SELECT n.job_id FROM workflow_run_nodes n"
            + " JOIN workflow_runs r ON r.run_id = n.run_id"
            + " WHERE n.job_id = ANY($1) AND (r.status <> 'RUNNING' OR n.status IN ('CANCELLED', 'SKIPPED'))"
            + " UNION ALL SELECT u.job_id FROM unnest($1::uuid[], $2::uuid[]) AS u(job_id, run_id)"
            + " JOIN workflow_runs r ON r.run_id = u.run_id WHERE r.workflow_id IS NULL";

    private static final String ENDED_JOBS = "SELECT job_id, job_status FROM job_executions WHERE job_id = ANY($1)"
            + " AND job_status IN ('COMPLETED', 'FAILED', 'CANCELLED')";

    private static final String UPDATE_NODES = "UPDATE workflow_run_nodes AS n SET status = u.status,"
            + " ready_at = u.ready_at"
            + " FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[])"
            + " AS u(run_id, node_id, status, ready_at)"
            + " WHERE n.run_id = u.run_id AND n.node_id = u.node_id";

    private static final String UPDATE_RUNS = "UPDATE workflow_runs AS r SET status = u.status,"
            + " progress_version = u.progress_version, finished_at = u.finished_at, updated_at = now()"
            + " FROM unnest($1::uuid[], $2::text[], $3::int8[], $4::timestamptz[])"
            + " AS u(run_id, status, progress_version, finished_at)"
            + " WHERE r.run_id = u.run_id";

    private static final String RESULTS = "SELECT job_id, result::text AS result FROM job_executions"
            + " WHERE job_id = ANY($1)";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Stores {@code run} unless a row of its runId is there.
     *
     * @return the statement's {@code now()} when the run was stored; empty when a row was there
     */
    public Uni<Optional<Instant>> insertRun(SqlConnection tx, WorkflowRun run) {
        return tx.preparedQuery(INSERT_RUN).execute(Tuple.from(new Object[] {run.runId(), run.workflowId(),
                run.version(), run.tenant(), run.onFailure() == null ? null : run.onFailure().name(),
                run.maxConcurrency(), run.status().name(), run.progressVersion(), run.traceId(), run.traceparent(),
                odt(run.createdAt()), odt(run.finishedAt()), run.scheduleId()})).map(rows -> {
                    var it = rows.iterator();
                    return it.hasNext() ? Optional.of(instant(it.next(), "db_now")) : Optional.empty();
                });
    }

    /** Gives the cancel kept for {@code run} before its START the START's graph fields; the rows changed. */
    public Uni<Integer> fillCancelBeforeStart(SqlConnection tx, WorkflowRun run) {
        return tx.preparedQuery(FILL_RUN).execute(Tuple.from(new Object[] {run.runId(), run.workflowId(),
                run.version(), run.tenant(), run.onFailure().name(), run.maxConcurrency(), run.traceId(),
                run.traceparent(), odt(run.createdAt()), run.scheduleId()})).map(rows -> rows.rowCount());
    }

    /** Stores the nodes of a new run, in one statement. */
    public Uni<Void> insertNodes(SqlConnection tx, UUID runId, List<RunNode> nodes) {
        Tuple arrays = Tuple.from(new Object[] {runId,
                Columns.of(nodes, RunNode::nodeId, String[]::new),
                Columns.of(nodes, RunNode::ord, Integer[]::new),
                // Node ids are letters, digits, '_' and '-' (WorkflowGraph.NODE_ID): an array literal needs no quoting.
                Columns.of(nodes, n -> "{" + String.join(",", n.dependsOn()) + "}", String[]::new),
                Columns.of(nodes, n -> n.status().name(), String[]::new),
                Columns.of(nodes, RunNode::jobId, UUID[]::new),
                Columns.of(nodes, n -> odt(n.readyAt()), OffsetDateTime[]::new)});
        return tx.preparedQuery(INSERT_NODES).execute(arrays).replaceWithVoid();
    }

    /**
     * The API purged the run (its retention ended): deleted with its nodes (cascade) if it has finished; a run that
     * has not, or a cancel kept for a start still to come, stays.
     */
    private static final String DELETE_FINISHED_RUN = """
            DELETE FROM workflow_runs WHERE run_id = $1 AND workflow_id IS NOT NULL
            AND status IN ('COMPLETED', 'FAILED', 'CANCELLED')""";

    /** Deletes the run {@code runId} with its nodes if it has finished ({@link #DELETE_FINISHED_RUN}); true if so. */
    public Uni<Boolean> deleteFinishedRun(SqlConnection tx, UUID runId) {
        return tx.preparedQuery(DELETE_FINISHED_RUN).execute(Tuple.of(runId)).map(rows -> rows.rowCount() > 0);
    }

    /** Runs with their nodes, locked. */
    public record Locked(Instant now, Map<UUID, WorkflowRun> runs, Map<UUID, List<RunNode>> nodes) {
    }

    /**
     * The runs of {@code runIds}, each locked until the transaction ends (in runId order), with their nodes in graph
     * order; unknown ids are absent.
     */
    public Uni<Locked> lockRuns(SqlConnection tx, Collection<UUID> runIds) {
        UUID[] ids = runIds.toArray(UUID[]::new);
        return tx.preparedQuery(LOCK_RUNS).execute(Tuple.of(ids)).chain(rows -> {
            Instant now = null;
            Map<UUID, WorkflowRun> runs = new LinkedHashMap<>();
            for (Row row : rows) {
                now = instant(row, "db_now");
                if (row.getUUID("run_id") != null) {
                    runs.put(row.getUUID("run_id"), run(row));
                }
            }
            Instant at = now;
            if (runs.isEmpty()) {
                return Uni.createFrom().item(new Locked(at, runs, Map.of()));
            }
            return tx.preparedQuery(NODES_OF_RUNS).execute(Tuple.of(runs.keySet().toArray(UUID[]::new)))
                    .map(nodeRows -> {
                        Map<UUID, List<RunNode>> nodes = new HashMap<>();
                        for (Row row : nodeRows) {
                            nodes.computeIfAbsent(row.getUUID("run_id"), id -> new ArrayList<>()).add(node(row));
                        }
                        return new Locked(at, runs, nodes);
                    });
        });
    }

    /** Which run and node a job was made for. */
    public record NodeRef(UUID jobId, UUID runId, String nodeId) {
    }

    /** The nodes whose jobs are among {@code jobIds}, by jobId; jobs of no node are absent. One index probe each. */
    public Uni<Map<UUID, NodeRef>> nodesOfJobs(SqlClient client, Collection<UUID> jobIds) {
        return client.preparedQuery(NODES_OF_JOBS).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, NodeRef> refs = new HashMap<>();
            for (Row row : rows) {
                refs.put(row.getUUID("job_id"), new NodeRef(row.getUUID("job_id"), row.getUUID("run_id"),
                        row.getString("node_id")));
            }
            return refs;
        });
    }

    /**
     * Those of the node jobs {@code runOfJob} (jobId to runId) that must not run: their run has ended (or is a cancel
     * kept before its START), or their node was cancelled or skipped.
     */
    public Uni<Set<UUID>> orphanJobs(SqlClient client, Map<UUID, UUID> runOfJob) {
        List<UUID> jobs = List.copyOf(runOfJob.keySet());
        return client.preparedQuery(ORPHAN_JOBS).execute(Tuple.of(jobs.toArray(UUID[]::new),
                jobs.stream().map(runOfJob::get).toArray(UUID[]::new))).map(rows -> {
                    Set<UUID> orphans = new HashSet<>();
                    rows.forEach(row -> orphans.add(row.getUUID("job_id")));
                    return orphans;
                });
    }

    /** Those of {@code jobIds} that have ended, with their status. */
    public Uni<Map<UUID, JobStatus>> endedJobs(SqlClient client, Collection<UUID> jobIds) {
        return client.preparedQuery(ENDED_JOBS).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, JobStatus> ended = new HashMap<>();
            rows.forEach(row -> ended.put(row.getUUID("job_id"), JobStatus.valueOf(row.getString("job_status"))));
            return ended;
        });
    }

    /** A node's new state, with its run. */
    public record NodeWrite(UUID runId, RunNode node) {
    }

    /** Writes the nodes' statuses and readiness, in one statement. */
    public Uni<Void> writeNodes(SqlConnection tx, List<NodeWrite> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return tx.preparedQuery(UPDATE_NODES).execute(Tuple.from(new Object[] {
                Columns.of(writes, NodeWrite::runId, UUID[]::new),
                Columns.of(writes, w -> w.node().nodeId(), String[]::new),
                Columns.of(writes, w -> w.node().status().name(), String[]::new),
                Columns.of(writes, w -> odt(w.node().readyAt()), OffsetDateTime[]::new)})).replaceWithVoid();
    }

    /** Writes the runs' statuses, progress versions and ends, in one statement. */
    public Uni<Void> writeRuns(SqlConnection tx, List<WorkflowRun> runs) {
        if (runs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return tx.preparedQuery(UPDATE_RUNS).execute(Tuple.from(new Object[] {
                Columns.of(runs, WorkflowRun::runId, UUID[]::new),
                Columns.of(runs, r -> r.status().name(), String[]::new),
                Columns.of(runs, WorkflowRun::progressVersion, Long[]::new),
                Columns.of(runs, r -> odt(r.finishedAt()), OffsetDateTime[]::new)})).replaceWithVoid();
    }

    /**
     * The results the jobs of {@code jobIds} reported, by jobId, as the caller's transaction sees them (a result
     * written earlier in it included); a job that reported none maps to a JSON null, an unknown job is absent.
     */
    public Uni<Map<UUID, JsonNode>> results(SqlClient client, Collection<UUID> jobIds) {
        return client.preparedQuery(RESULTS).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, JsonNode> results = new HashMap<>();
            for (Row row : rows) {
                String text = row.getString("result");
                try {
                    results.put(row.getUUID("job_id"), text == null ? JSON.nullNode() : JSON.readTree(text));
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("unreadable result of job " + row.getUUID("job_id"), e);
                }
            }
            return results;
        });
    }

    private static WorkflowRun run(Row row) {
        String onFailure = row.getString("on_failure");
        return new WorkflowRun(row.getUUID("run_id"), row.getUUID("workflow_id"), row.getInteger("version"),
                row.getString("tenant"), onFailure == null ? null : OnFailure.valueOf(onFailure),
                row.getInteger("max_concurrency"), WorkflowRunStatus.valueOf(row.getString("status")),
                row.getLong("progress_version"), row.getString("trace_id"), row.getString("traceparent"),
                instant(row, "created_at"), instant(row, "finished_at"), row.getUUID("schedule_id"));
    }

    private static RunNode node(Row row) {
        String[] dependsOn = row.getArrayOfStrings("depends_on");
        return new RunNode(row.getString("node_id"), row.getInteger("ord"),
                dependsOn == null ? List.of() : List.of(dependsOn), NodeStatus.valueOf(row.getString("status")),
                row.getUUID("job_id"), instant(row, "ready_at"));
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }

    private static OffsetDateTime odt(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
