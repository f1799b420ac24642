package dev.jobweaver.scheduler.dispatch.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.local.testing.LocalStackResource;
import dev.jobweaver.scheduler.testing.ProductionPollingProfile;
import dev.jobweaver.scheduler.testing.TestJobs;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Jobs waiting for a later start cost no CPU while they wait: with the production poll (every second) and gauges,
 * the scheduler and its database connections use no more CPU idle with many future jobs in the table than without
 * them. Rows: {@code -Djobweaver.idle-test.rows} (default 100,000; the figure in the docs was taken with 1,000,000
 * over 60-second windows, which include one refresh of the delayed-jobs gauge).
 */
@QuarkusTest
@TestProfile(ProductionPollingProfile.class)
@QuarkusTestResource(value = LocalStackResource.class,
        initArgs = @ResourceArg(name = LocalStackResource.DATABASE, value = "jobweaver_scheduler"))
class IdleCostTest {

    private static final Logger LOG = Logger.getLogger(IdleCostTest.class);
    private static final String TENANT = "idle-cost";
    /** How long each measure lasts: {@code -Djobweaver.idle-test.window-seconds} (default 15). */
    private static final Duration WINDOW = Duration.ofSeconds(Long.getLong("jobweaver.idle-test.window-seconds", 15));
    /** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
    private static final double TICKS = 100.0;

    @Inject
    Pool pool;

    @Inject
    Dispatcher dispatcher;

    @AfterEach
    void deleteTheRows() {
        execute("DELETE FROM job_executions WHERE tenant = $1", TENANT);
        execute("VACUUM ANALYZE job_executions");
    }

    @Test
    void jobsForLaterCostNoCpuWhileTheyWait() throws Exception {
        int rows = Integer.getInteger("jobweaver.idle-test.rows", 100_000);
        execute("VACUUM ANALYZE job_executions");
        // Past the start's own work (class loading, compilation of the first rounds).
        Thread.sleep(5_000);
        double[] without = measure();

        // Due from a day on, over the three levels: nothing of them is due during the measure.
        execute("INSERT INTO job_executions (job_id, job_type, instruction, job_status, max_retries, next_run_at,"
                + " created_at, updated_at, priority, tenant)"
                + " SELECT gen_random_uuid(), 'SIMULATION', $1::text::jsonb, 'PENDING', 0,"
                + " now() + make_interval(secs => 86400 + i), now(), now(), (ARRAY['HIGH','NORMAL','LOW'])[1 + i % 3],"
                + " $2 FROM generate_series(1, $3) i", TestJobs.LOG_INSTRUCTION, TENANT, rows);
        // Settle what the insert set off (autovacuum, hint bits) before measuring, as a table that waits would be.
        execute("VACUUM ANALYZE job_executions");
        dispatcher.wake();
        Thread.sleep(2_000);
        double[] with = measure();

        LOG.infof("idle CPU, share of one core: scheduler JVM %.4f without and %.4f with %d jobs for later;"
                + " its database connections %.4f without and %.4f with", without[0], with[0], rows, without[1],
                with[1]);
        // One core's hundredth of slack each: the measure is coarse (10 ms ticks) on a shared machine. Scanning the
        // waiting jobs once a second would cost the database tens of times this with a million rows.
        assertThat(with[1]).as("database CPU with jobs for later").isLessThan(without[1] + 0.01);
        assertThat(with[0]).as("scheduler CPU with jobs for later").isLessThan(without[0] + 0.02);
    }

    /** The CPU share of one core used over {@link #WINDOW}: {@code [this JVM, the database's client backends]}. */
    private double[] measure() throws Exception {
        List<Long> backends = backendPids();
        long jvmBefore = jvmCpuNanos();
        long dbBefore = ticks(backends);
        long start = System.nanoTime();
        Thread.sleep(WINDOW.toMillis());
        double elapsed = (System.nanoTime() - start) / 1e9;
        double jvm = (jvmCpuNanos() - jvmBefore) / 1e9 / elapsed;
        double db = (ticks(backends) - dbBefore) / TICKS / elapsed;
        return new double[] {jvm, db};
    }

    private List<Long> backendPids() {
        List<Long> pids = new ArrayList<>();
        for (Row row : pool.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                + " AND backend_type = 'client backend'").execute().await().atMost(Duration.ofSeconds(30))) {
            pids.add(row.getLong("pid"));
        }
        return pids;
    }

    private static long jvmCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** utime + stime of {@code pids} (a backend that has gone counts what it used before). */
    private static long ticks(List<Long> pids) throws IOException {
        long total = 0;
        for (long pid : pids) {
            Path stat = Path.of("/proc", Long.toString(pid), "stat");
            if (!Files.exists(stat)) {
                continue;
            }
            String line = Files.readString(stat);
            String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
            total += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        }
        return total;
    }

    private void execute(String sql, Object... args) {
        pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(Duration.ofMinutes(5));
    }
}
