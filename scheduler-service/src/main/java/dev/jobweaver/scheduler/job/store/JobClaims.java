package dev.jobweaver.scheduler.job.store;

import static dev.jobweaver.scheduler.job.store.JobRows.*;
import static dev.jobweaver.scheduler.job.store.JobSql.*;

import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Priority;
import dev.jobweaver.scheduler.job.JobExecution;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Locks the jobs a transaction is about to move: the due jobs a dispatch round claims (plain, or under the
 * concurrency limits), the expired leases a sweep claims, and the jobs an outcome or a command names.
 *
 * <p>Every method runs in the caller's transaction and its row locks are held until the caller commits, which is what
 * lets the caller publish to Kafka before committing. Claims skip rows another transaction holds ({@code SKIP
 * LOCKED}), so replicas claim disjoint jobs. Nothing here blocks a thread.
 */
@ApplicationScoped
public class JobClaims {

    /** The plain claim's text for each batch, limit and order of the levels it was called with: a handful. */
    private final Map<ClaimText, String> claimTexts = new ConcurrentHashMap<>();

    private record ClaimText(int batch, int maxInFlight, List<Priority> order) {
    }

    /**
     * The rows a dispatch round owns until its transaction ends: due, {@code PENDING}, not locked by anyone; at most
     * {@code batch}, and at most {@code maxInFlight} minus the jobs {@code RUNNING} now ({@code maxInFlight <= 0}: no
     * such limit).
     */
    public Uni<Claim> claimDue(SqlConnection tx, int batch, int maxInFlight, List<Priority> order) {
        if (order.size() != Priority.values().length || !order.containsAll(List.of(Priority.values()))) {
            throw new IllegalArgumentException("a claim visits every priority level once, got " + order);
        }
        String claim = claimTexts.computeIfAbsent(new ClaimText(batch, maxInFlight, List.copyOf(order)),
                text -> JobSql.claimDue(text.batch(), text.maxInFlight(), text.order()));
        return tx.preparedQuery(claim).execute().map(rows -> {
                    List<JobExecution> jobs = new ArrayList<>(rows.size());
                    Instant now = null;
                    Instant nextLater = null;
                    boolean limited = false;
                    for (Row row : rows) {
                        now = instant(row, "round_now");
                        nextLater = instant(row, "next_later");
                        limited = row.getBoolean("limits_in_db");
                        if (row.getUUID("job_id") != null) {
                            jobs.add(job(row));
                        }
                    }
                    return new Claim(now, jobs, nextLater, limited);
                });
    }

    /**
     * The rows a dispatch round owns, as {@link #claimDue(SqlConnection, int, int, List)} with the levels in their
     * declaration order (HIGH, NORMAL, LOW).
     */
    public Uni<Claim> claimDue(SqlConnection tx, int batch, int maxInFlight) {
        return claimDue(tx, batch, maxInFlight, List.of(Priority.values()));
    }

    /**
     * Takes the lock that serializes claims under concurrency limits, held until {@code tx} ends.
     *
     */
    public Uni<LimitLock> lockForLimitedClaim(SqlConnection tx) {
        return tx.query(LOCK_LIMITS).execute().map(rows -> {
            Row row = rows.iterator().next();
            return new LimitLock(row.getBoolean("limits_in_db"), instant(row, "db_now"));
        });
    }

    /**
     * The claim lock, taken.
     *
     * @param limitsInDb a limit kept in the database (a tenant's, a waiting workflow job's) applies to some job
     * @param now        the transaction's {@code now()}
     */
    public record LimitLock(boolean limitsInDb, Instant now) {
    }

    /** The jobs {@code RUNNING} by tenant, job type and workflow, and each tenant's limit, read in {@code tx}. */
    public Uni<RunningAndLimits> runningAndTenantLimits(SqlConnection tx) {
        return tx.query(RUNNING_AND_TENANT_LIMITS).execute().map(rows -> {
            List<Running> running = new ArrayList<>();
            Map<String, Integer> tenantLimits = new HashMap<>();
            for (Row row : rows) {
                if ("T".equals(row.getString("kind"))) {
                    tenantLimits.put(row.getString("tenant"), row.getLong("n").intValue());
                } else {
                    running.add(new Running(row.getString("tenant"), row.getString("job_type"),
                            row.getString("queue"), row.getUUID("workflow_id"), row.getInteger("workflow_max"),
                            row.getLong("n")));
                }
            }
            return new RunningAndLimits(running, tenantLimits);
        });
    }

    /**
     * The due {@code PENDING} jobs a limited claim may pick from, in the claim's level order and oldest first, at most
     * {@code perLevel} of each level, none of a saturated key; unlocked. Also the earliest start of a job not due yet.
     */
    public Uni<Candidates> limitedCandidates(SqlConnection tx, List<Priority> order, int perLevel,
                                             Collection<String> saturatedTenants, Collection<String> saturatedTypes,
                                             Collection<UUID> saturatedWorkflows, Collection<String> saturatedQueues) {
        if (order.size() != Priority.values().length || !order.containsAll(List.of(Priority.values()))) {
            throw new IllegalArgumentException("a claim visits every priority level once, got " + order);
        }
        Tuple args = Tuple.from(new Object[] {order.get(0).name(), order.get(1).name(), order.get(2).name(), perLevel,
                saturatedTenants.toArray(String[]::new), saturatedTypes.toArray(String[]::new),
                saturatedWorkflows.toArray(UUID[]::new), saturatedQueues.toArray(String[]::new)});
        return tx.preparedQuery(LIMITED_CANDIDATES).execute(args).map(rows -> {
            List<Candidate> candidates = new ArrayList<>();
            int[] perLevelCount = new int[Priority.values().length];
            Instant nextLater = null;
            for (Row row : rows) {
                nextLater = instant(row, "next_later");
                if (row.getUUID("job_id") != null) {
                    perLevelCount[row.getInteger("lvl") - 1]++;
                    candidates.add(new Candidate(row.getUUID("job_id"), row.getString("tenant"),
                            row.getString("job_type"), row.getString("queue"), row.getUUID("workflow_id"),
                            row.getInteger("workflow_max_running")));
                }
            }
            boolean truncated = Arrays.stream(perLevelCount).anyMatch(n -> n >= perLevel);
            return new Candidates(candidates, truncated, nextLater);
        });
    }

    /**
     * Locks the picked jobs that are still {@code PENDING} and due and that nobody else holds, until {@code tx} ends;
     * returned in the order of {@code jobIds}.
     */
    public Uni<List<JobExecution>> lockPicked(SqlConnection tx, List<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return tx.preparedQuery(LOCK_PICKED).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, JobExecution> locked = new HashMap<>();
            rows.forEach(row -> locked.put(row.getUUID("job_id"), job(row)));
            return jobIds.stream().map(locked::get).filter(Objects::nonNull).toList();
        });
    }

    /** The jobs {@code RUNNING} under one key: a tenant, a job type, a queue, a workflow (null: none) and its limit. */
    public record Running(String tenant, String jobType, String queue, UUID workflowId, Integer workflowMax,
                          long count) {

        /** Running jobs of the default queue. */
        public Running(String tenant, String jobType, UUID workflowId, Integer workflowMax, long count) {
            this(tenant, jobType, JobControl.DEFAULT_QUEUE, workflowId, workflowMax, count);
        }
    }

    /** The jobs {@code RUNNING} by key, and each tenant's limit. */
    public record RunningAndLimits(List<Running> running, Map<String, Integer> tenantLimits) {
    }

    /** A due job a limited claim may pick, with every key a limit may apply to. */
    public record Candidate(UUID jobId, String tenant, String jobType, String queue, UUID workflowId,
                            Integer workflowMax) {

        /** A candidate of the default queue. */
        public Candidate(UUID jobId, String tenant, String jobType, UUID workflowId, Integer workflowMax) {
            this(jobId, tenant, jobType, JobControl.DEFAULT_QUEUE, workflowId, workflowMax);
        }
    }

    /**
     * What a limited claim may pick from.
     *
     * @param truncated some level had more due jobs than were read
     * @param nextLater the earliest start of a {@code PENDING} job not due yet, or null
     */
    public record Candidates(List<Candidate> jobs, boolean truncated, Instant nextLater) {
    }

    /** {@code RUNNING} rows whose lease has passed and nobody else is handling. */
    public Uni<Claim> claimExpiredLeases(SqlConnection tx, int limit) {
        return tx.preparedQuery(CLAIM_EXPIRED).execute(Tuple.of(limit)).map(JobClaims::claim);
    }

    /**
     * Several jobs, each locked until the transaction ends (waiting for a dispatch round that holds one), in
     * {@code job_id} order so that overlapping lockers cannot deadlock; unknown ids are simply absent.
     */
    public Uni<LockedMany> lockAll(SqlConnection tx, Collection<UUID> jobIds) {
        if (jobIds.isEmpty()) {
            return Uni.createFrom().item(new LockedMany(null, Map.of()));
        }
        return tx.preparedQuery(LOCK_MANY).execute(Tuple.of(jobIds.toArray(UUID[]::new))).map(rows -> {
            Map<UUID, JobExecution> jobs = new HashMap<>();
            Map<UUID, UUID> runs = new HashMap<>();
            Instant now = null;
            for (Row row : rows) {
                now = instant(row, "db_now");
                JobExecution job = job(row);
                jobs.put(job.jobId(), job);
                UUID run = row.getUUID("workflow_run_id");
                if (run != null) {
                    runs.put(job.jobId(), run);
                }
            }
            return new LockedMany(now, jobs, runs);
        });
    }

    private static Claim claim(RowSet<Row> rows) {
        List<JobExecution> jobs = new ArrayList<>(rows.size());
        Instant now = null;
        for (Row row : rows) {
            now = instant(row, "db_now");
            jobs.add(job(row));
        }
        return new Claim(now, jobs);
    }

    /**
     * Rows claimed in a transaction.
     *
     * @param now the database's {@code now()} of the transaction (null when nothing was claimed): every instant
     *            written by the transaction derives from it, so all replicas share one clock
     * @param nextLater for a dispatch claim, the earliest start of a {@code PENDING} job not due yet, or null
     * @param limitsInDb for a plain dispatch claim, that it claimed nothing because a limit kept in the database
     *                   applies to some job: the caller must claim under the limits
     */
    public record Claim(Instant now, List<JobExecution> jobs, Instant nextLater, boolean limitsInDb) {

        public Claim(Instant now, List<JobExecution> jobs, Instant nextLater) {
            this(now, jobs, nextLater, false);
        }

        public Claim(Instant now, List<JobExecution> jobs) {
            this(now, jobs, null);
        }
    }

    /**
     * Rows locked in a transaction, by jobId.
     *
     * @param now the transaction's {@code now()}; null when none of the ids exists
     * @param workflowRuns the workflow run of each locked job that is a workflow node's, by jobId
     */
    public record LockedMany(Instant now, Map<UUID, JobExecution> jobs, Map<UUID, UUID> workflowRuns) {

        public LockedMany {
            workflowRuns = Map.copyOf(workflowRuns);
        }

        public LockedMany(Instant now, Map<UUID, JobExecution> jobs) {
            this(now, jobs, Map.of());
        }

        /** These rows and {@code later}'s, locked afterwards in the same transaction; this one's clock if it has one. */
        public LockedMany and(LockedMany later) {
            Map<UUID, JobExecution> allJobs = new HashMap<>(jobs);
            allJobs.putAll(later.jobs());
            Map<UUID, UUID> allRuns = new HashMap<>(workflowRuns);
            allRuns.putAll(later.workflowRuns());
            return new LockedMany(now != null ? now : later.now(), allJobs, allRuns);
        }
    }
}
