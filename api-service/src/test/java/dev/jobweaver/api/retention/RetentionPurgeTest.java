package dev.jobweaver.api.retention;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.retention.RetentionStore.DueJob;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.api.testing.Tenants;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.WorkflowRunEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

/**
 * The purge against the API's database and a real Kafka: only finished jobs past their retention (the tenant's
 * override, else the default, by final status) go, with everything of them, after their {@code PURGE} commands were
 * acknowledged; unfinished and recent jobs stay; a batch is bounded; events and quarantined records go by age.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class RetentionPurgeTest {

    private static final Duration DAY = Duration.ofDays(1);

    /** When each job {@link #job} made was created. */
    private static final Map<UUID, Instant> CREATED = new ConcurrentHashMap<>();

    @Inject RetentionPurge purge;
    @Inject RetentionStore store;
    @Inject ObjectMapper mapper;

    @Test
    void onlyFinishedJobsPastTheirRetentionGoWithEverythingOfThem() throws Exception {
        Instant now = Instant.now();
        String tenant = Tenants.fresh("p");
        UUID completedOld = job(tenant, "COMPLETED", now.minus(DAY.multipliedBy(8)));
        UUID completedRecent = job(tenant, "COMPLETED", now.minus(DAY.multipliedBy(6)));
        UUID failedRecent = job(tenant, "FAILED", now.minus(DAY.multipliedBy(8)));
        UUID failedOld = job(tenant, "FAILED", now.minus(DAY.multipliedBy(31)));
        UUID cancelledOld = job(tenant, "CANCELLED", now.minus(DAY.multipliedBy(31)));
        UUID runningOld = job(tenant, "RUNNING", null);
        UUID pendingOld = job(tenant, "PENDING", null);
        for (UUID id : List.of(completedOld, failedOld, completedRecent)) {
            dependants(id, tenant);
        }

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_COMMANDS)) {
            RetentionPurge.Purged purged = purge.purgeDue(now).await().atMost(Duration.ofSeconds(60));
            assertThat(purged.jobs()).isGreaterThanOrEqualTo(3);

            assertThat(existing(completedOld, completedRecent, failedRecent, failedOld, cancelledOld, runningOld,
                    pendingOld)).containsExactlyInAnyOrder(completedRecent, failedRecent, runningOld, pendingOld);
            for (UUID gone : List.of(completedOld, failedOld)) {
                assertThat(dependantRows(gone)).as("what is left of " + gone).isZero();
            }
            assertThat(dependantRows(completedRecent)).as("a kept job keeps everything").isEqualTo(8);

            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(seen -> purged(seen)
                    .containsAll(List.of(completedOld, failedOld, cancelledOld)), Duration.ofSeconds(20));
            assertThat(purged(records)).doesNotContain(completedRecent, failedRecent, runningOld, pendingOld);
            int partitions = KafkaProbe.endOffsets(Topics.JOB_COMMANDS).size();
            for (ConsumerRecord<String, byte[]> record : records) {
                JobCommandEvent event = mapper.readValue(record.value(), JobCommandEvent.class);
                assertThat(event.command()).isEqualTo(JobCommand.PURGE);
                assertThat(record.key()).isEqualTo(event.jobId().toString());
                assertThat(event.jobIds()).contains(event.jobId());
                for (UUID named : event.jobIds()) {
                    assertThat(BuiltInPartitioner.partitionForKey(named.toString().getBytes(StandardCharsets.UTF_8),
                            partitions)).as("the partition of %s, named by the PURGE on %d", named, record.partition())
                            .isEqualTo(record.partition());
                }
            }
        }
    }

    @Test
    void aTenantsOverrideIsHonouredByFinalStatus() throws Exception {
        Instant now = Instant.now();
        String shortLived = Tenants.fresh("p");
        String longLived = Tenants.fresh("p");
        String plain = Tenants.fresh("p");
        retention(shortLived, 10_000L, null);
        retention(longLived, null, Duration.ofDays(60).toMillis());
        UUID shortCompleted = job(shortLived, "COMPLETED", now.minusSeconds(60));
        UUID shortFailed = job(shortLived, "FAILED", now.minusSeconds(60)); // failedAfter: the default 30 days
        UUID shortTooYoung = job(shortLived, "COMPLETED", now.minusSeconds(5));
        UUID longFailed = job(longLived, "FAILED", now.minus(DAY.multipliedBy(31)));
        UUID longCompleted = job(longLived, "COMPLETED", now.minus(DAY.multipliedBy(8)));
        UUID plainCompleted = job(plain, "COMPLETED", now.minusSeconds(60));

        purge.purgeDue(now).await().atMost(Duration.ofSeconds(60));

        assertThat(existing(shortCompleted, shortFailed, shortTooYoung, longFailed, longCompleted, plainCompleted))
                .containsExactlyInAnyOrder(shortFailed, shortTooYoung, longFailed, plainCompleted);
    }

    @Test
    void aBatchIsBoundedAndTheRestWaitsForTheNext() throws Exception {
        Instant now = Instant.now();
        String tenant = Tenants.fresh("p");
        List<UUID> jobs = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            jobs.add(job(tenant, "COMPLETED", now.minus(DAY.multipliedBy(10)).plusSeconds(i)));
        }
        List<DueJob> due = store.dueJobs(now, Duration.ofDays(7), Duration.ofDays(30), 3)
                .await().atMost(Duration.ofSeconds(30));
        assertThat(due).hasSize(3);
        List<UUID> gone = store.purgeJobs(due, now).await().atMost(Duration.ofSeconds(30));
        assertThat(gone).containsExactlyInAnyOrderElementsOf(due.stream().map(DueJob::id).toList());
        assertThat(existing(jobs.toArray(UUID[]::new))).hasSize(jobs.size() - (int) due.stream()
                .filter(d -> jobs.contains(d.id())).count());
    }

    @Test
    void aJobThatIsNoLongerFinishedOrWasJustRequeuedIsSpared() throws Exception {
        Instant now = Instant.now();
        String tenant = Tenants.fresh("p");
        UUID requeued = job(tenant, "FAILED", now.minus(DAY.multipliedBy(40)));
        UUID again = job(tenant, "FAILED", now.minus(DAY.multipliedBy(40)));
        exec("INSERT INTO dead_letters (job_id, tenant, job_type, state, attempts, failed_at, requeued_at,"
                + " requeue_count, created_at, updated_at) VALUES (?, ?, 'SIMULATION', 'REQUEUED', 1, now(), now(), 1,"
                + " now(), now())", requeued, tenant);
        List<DueJob> due = store.dueJobs(now, Duration.ofDays(7), Duration.ofDays(30), 10_000)
                .await().atMost(Duration.ofSeconds(30)).stream().filter(d -> d.id().equals(requeued)
                        || d.id().equals(again)).toList();
        assertThat(due).hasSize(2);
        exec("UPDATE jobs SET status = 'PENDING' WHERE id = ?", again); // requeued meanwhile, its status arrived

        List<UUID> gone = store.purgeJobs(due, now.minus(Duration.ofMinutes(2))).await().atMost(Duration.ofSeconds(30));

        assertThat(gone).isEmpty();
        assertThat(existing(requeued, again)).containsExactlyInAnyOrder(requeued, again);
    }

    @Test
    void eventsAndQuarantinedRecordsGoByAge() throws Exception {
        String tenant = Tenants.fresh("p");
        Instant now = Instant.now();
        exec("INSERT INTO application_events (tenant, id, type, runs, received_at) VALUES (?, 'old', 't', '{}', ?)",
                tenant, at(now.minus(DAY.multipliedBy(31))));
        exec("INSERT INTO application_events (tenant, id, type, runs, received_at) VALUES (?, 'new', 't', '{}', ?)",
                tenant, at(now.minus(DAY)));
        UUID oldRecord = quarantined("k-" + UUID.randomUUID(), now.minus(DAY.multipliedBy(31)));
        UUID newRecord = quarantined("k-" + UUID.randomUUID(), now.minus(DAY));

        purge.purgeDue(now).await().atMost(Duration.ofSeconds(60));

        assertThat(Database.firstString("SELECT string_agg(id, ',') FROM application_events WHERE tenant = ?",
                tenant)).isEqualTo("new");
        assertThat(Database.hasRow("SELECT 1 FROM quarantined_records WHERE id = ?", oldRecord)).isFalse();
        assertThat(Database.hasRow("SELECT 1 FROM quarantined_records WHERE id = ?", newRecord)).isTrue();
    }

    @Test
    void finishedRunsPastTheirRetentionGoAndTheSchedulerIsToldAndNodeJobsWaitForTheirRun() throws Exception {
        Instant now = Instant.now();
        String tenant = Tenants.fresh("p");
        retention(tenant, 10_000L, null);
        UUID workflow = workflow(tenant);
        UUID completed = run(workflow, tenant, "COMPLETED", now.minusSeconds(60));
        UUID failed = run(workflow, tenant, "FAILED", now.minusSeconds(60)); // failedAfter: the default 30 days
        UUID running = run(workflow, tenant, "RUNNING", null);
        UUID nodeOfRunning = job(tenant, "COMPLETED", now.minusSeconds(60));
        UUID nodeOfCompleted = job(tenant, "COMPLETED", now.minusSeconds(60));
        exec("UPDATE jobs SET workflow_run_id = ? WHERE id = ?", running, nodeOfRunning);
        exec("UPDATE jobs SET workflow_run_id = ? WHERE id = ?", completed, nodeOfCompleted);

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.WORKFLOW_RUNS)) {
            purge.purgeDue(now).await().atMost(Duration.ofSeconds(60));

            assertThat(runs(completed, failed, running)).containsExactlyInAnyOrder(failed, running);
            assertThat(existing(nodeOfRunning, nodeOfCompleted)).as("a node job waits for its run to finish")
                    .containsExactly(nodeOfRunning);
            List<ConsumerRecord<String, byte[]>> records = probe.pollUntil(
                    seen -> seen.stream().anyMatch(r -> completed.toString().equals(r.key())), Duration.ofSeconds(20));
            WorkflowRunEvent event = mapper.readValue(probe.first(completed.toString()).value(),
                    WorkflowRunEvent.class);
            assertThat(event.kind()).isEqualTo(WorkflowRunEvent.Kind.PURGE);
            assertThat(event.runId()).isEqualTo(completed);
            assertThat(records).noneMatch(r -> failed.toString().equals(r.key()) || running.toString().equals(r.key()));
        }
    }

    private static UUID workflow(String tenant) throws SQLException {
        UUID id = UUID.randomUUID();
        exec("INSERT INTO workflows (id, name, tenant, latest_version, created_at, updated_at)"
                + " VALUES (?, 'w', ?, 1, now(), now())", id, tenant);
        exec("INSERT INTO workflow_versions (workflow_id, version, name, nodes, on_failure, created_at)"
                + " VALUES (?, 1, 'w', '[]'::jsonb, 'FAIL_FAST', now())", id);
        return id;
    }

    private static UUID run(UUID workflow, String tenant, String status, Instant finishedAt) throws SQLException {
        UUID id = UUID.randomUUID();
        exec("INSERT INTO workflow_runs (id, workflow_id, workflow_version, tenant, status, trace_id, nodes,"
                + " change_version, published_version, created_at, updated_at, finished_at)"
                + " VALUES (?, ?, 1, ?, ?, '0123456789abcdef0123456789abcdef', '[]'::jsonb, 1, 1, now(), now(), ?)",
                id, workflow, tenant, status, finishedAt == null ? null : at(finishedAt));
        return id;
    }

    private static List<UUID> runs(UUID... ids) throws SQLException {
        List<UUID> found = new ArrayList<>();
        for (UUID id : ids) {
            if (Database.hasRow("SELECT 1 FROM workflow_runs WHERE id = ?", id)) {
                found.add(id);
            }
        }
        return found;
    }

    /** A job of {@code tenant} in {@code status}, created a day before it finished ({@code finishedAt}, or 40 days ago). */
    private static UUID job(String tenant, String status, Instant finishedAt) throws SQLException {
        UUID id = UUID.randomUUID();
        Instant created = (finishedAt != null ? finishedAt : Instant.now().minus(Duration.ofDays(40))).minus(DAY)
                .truncatedTo(ChronoUnit.MICROS);
        CREATED.put(id, created);
        exec("INSERT INTO jobs (id, type, instruction, trace_id, status, max_retries, created_at, updated_at,"
                        + " finished_at, tenant, status_version) VALUES (?, 'SIMULATION', '{}'::jsonb, ?, ?, 0, ?, ?, ?, ?, 3)",
                id, "0123456789abcdef0123456789abcdef", status, at(created),
                at(finishedAt != null ? finishedAt : created),
                finishedAt != null ? at(finishedAt) : null, tenant);
        return id;
    }

    /**
     * One row of each kind that belongs to job {@code id}: outbox, attempt, its subscription with a delivery, a
     * delivery of a subscription to its type, dead letter, idempotency key, quarantined copy (8 rows).
     */
    private static void dependants(UUID id, String tenant) throws SQLException {
        OffsetDateTime created = at(CREATED.get(id));
        exec("INSERT INTO job_outbox (job_id, event_id, created_at) VALUES (?, ?, now())", id, UUID.randomUUID());
        exec("INSERT INTO job_attempts (job_id, attempt, outcome) VALUES (?, 1, 'COMPLETED')", id);
        UUID own = UUID.randomUUID();
        exec("INSERT INTO subscriptions (id, tenant, job_id, events, url, secret, created_at)"
                + " VALUES (?, ?, ?, '{COMPLETED}', 'https://example.com', 'whsec_x', now())", own, tenant, id);
        delivery(own, id);
        UUID byType = UUID.randomUUID();
        exec("INSERT INTO subscriptions (id, tenant, job_type, events, url, secret, created_at)"
                + " VALUES (?, ?, ?, '{COMPLETED}', 'https://example.com', 'whsec_x', now())", byType, tenant,
                "T" + byType.toString().substring(0, 8));
        delivery(byType, id);
        exec("INSERT INTO dead_letters (job_id, tenant, job_type, state, attempts, failed_at, created_at, updated_at)"
                + " VALUES (?, ?, 'SIMULATION', 'OPEN', 1, now(), now(), now())", id, tenant);
        exec("INSERT INTO idempotency_keys (tenant, idem_key, fingerprint, job_id, trace_id, created_at)"
                + " VALUES (?, ?, ?, ?, 'x', ?)", tenant, "key-" + id, "0".repeat(64), id, created);
        quarantined(id.toString(), Instant.now());
    }

    private static void delivery(UUID subscription, UUID job) throws SQLException {
        exec("INSERT INTO deliveries (id, subscription_id, job_id, event, body, state, next_attempt_at, changed_at,"
                + " created_at) VALUES (?, ?, ?, 'COMPLETED', '{}', 'DELIVERED', now(), now(), now())",
                UUID.randomUUID(), subscription, job);
    }

    private static UUID quarantined(String key, Instant storedAt) throws SQLException {
        UUID id = UUID.randomUUID();
        exec("INSERT INTO quarantined_records (id, origin_topic, origin_partition, origin_offset, service, record_key,"
                + " reason, detail, quarantined_at, size, raw_headers, stored_at)"
                + " VALUES (?, 'job-status', 0, ?, 'api', ?, 'INVALID', 'x', now(), 1, ''::bytea, ?)",
                id, Math.abs(id.getLeastSignificantBits()), key, at(storedAt));
        return id;
    }

    /** The rows left that belong to job {@code id}, of the kinds {@link #dependants} makes. */
    private static long dependantRows(UUID id) throws SQLException {
        return Database.firstLong("""
                SELECT (SELECT count(*) FROM job_outbox WHERE job_id = '%1$s')
                     + (SELECT count(*) FROM job_attempts WHERE job_id = '%1$s')
                     + (SELECT count(*) FROM subscriptions WHERE job_id = '%1$s')
                     + (SELECT count(*) FROM deliveries WHERE job_id = '%1$s')
                     + (SELECT count(*) FROM dead_letters WHERE job_id = '%1$s')
                     + (SELECT count(*) FROM idempotency_keys WHERE job_id = '%1$s')
                     + (SELECT count(*) FROM quarantined_records WHERE record_key = '%1$s')
                     + 0 * length(?)
                """.formatted(id), "x");
    }

    private static List<UUID> existing(UUID... ids) throws SQLException {
        List<UUID> found = new ArrayList<>();
        for (UUID id : ids) {
            if (Database.hasRow("SELECT 1 FROM jobs WHERE id = ?", id)) {
                found.add(id);
            }
        }
        return found;
    }

    private static void retention(String tenant, Long completedMs, Long failedMs) throws SQLException {
        exec("INSERT INTO tenant_retention (tenant, completed_after_ms, failed_after_ms, updated_at)"
                + " VALUES (?, ?, ?, now())", tenant, completedMs, failedMs);
    }

    /** Every job the PURGE commands among {@code records} name. */
    private Set<UUID> purged(List<ConsumerRecord<String, byte[]>> records) {
        Set<UUID> ids = new HashSet<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                JobCommandEvent event = mapper.readValue(record.value(), JobCommandEvent.class);
                if (event.command() == JobCommand.PURGE) {
                    ids.addAll(event.jobs());
                }
            } catch (java.io.IOException e) {
                throw new AssertionError("a job-commands record that is not a command: " + e, e);
            }
        }
        return ids;
    }

    private static OffsetDateTime at(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static void exec(String sql, Object... params) throws SQLException {
        try (Connection c = Database.connect(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                s.setObject(i + 1, params[i]);
            }
            s.executeUpdate();
        }
    }
}
