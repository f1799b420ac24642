package dev.jobweaver.scheduler.limit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.common.event.TenantLimitEvent;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.scheduler.testing.ExecutableDatabase;
import dev.jobweaver.scheduler.testing.ExecutableTest;
import dev.jobweaver.scheduler.testing.TestJobs;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A tenant's limit published on {@code tenant-limits} holds in the native executable: with a limit of one, the second
 * job of the tenant waits PENDING while the first runs, and is dispatched once the first completed.
 *
 * <p>The test reads {@code tenant_limits} ({@link ExecutableDatabase}) to know the limit is stored before it submits
 * the jobs.
 */
@QuarkusIntegrationTest
@JobWeaverTest(database = "jobweaver_scheduler")
class TenantLimitIT extends ExecutableTest {

    @Test
    void aTenantAtItsLimitWaitsForItsRunningJobToEnd() {
        String tenant = "tl-" + UUID.randomUUID().toString().substring(0, 8);
        producer.sendJson(Topics.TENANT_LIMITS, tenant, new TenantLimitEvent(tenant, 1, 1, Instant.now()));
        await().atMost(TIMEOUT).until(() -> limitStored(tenant));

        JobControl control = new JobControl(null, null, null, null, tenant, null);
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        producer.sendJson(Topics.JOB_CREATED, first, TestJobs.created(first, 0, control, new Step.Log("first")));
        awaitRun(first, 1);
        producer.sendJson(Topics.JOB_CREATED, second, TestJobs.created(second, 0, control, new Step.Log("second")));
        // the packaged dispatcher polls every second besides its wake-ups: two rounds pass the second job by
        settle();
        settle();
        assertThat(recorder.records(Topics.RUN_JOB, second)).as("runs of the job over the limit").isEmpty();

        producer.sendJson(Topics.JOB_COMPLETED, first, TestJobs.completed(first, 1));

        awaitRun(second, 1);
        assertThat(awaitStatuses(first, 2)).extracting(s -> s.status().name()).containsExactly("RUNNING", "COMPLETED");
    }

    private static boolean limitStored(String tenant) throws SQLException {
        try (Connection connection = ExecutableDatabase.connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT 1 FROM tenant_limits WHERE tenant = ? AND max_running = 1")) {
            query.setString(1, tenant);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }
}
