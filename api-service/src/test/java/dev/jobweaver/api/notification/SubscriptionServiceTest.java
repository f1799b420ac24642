package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.FastDeliveries;
import dev.jobweaver.api.testing.JobCommands;
import dev.jobweaver.api.testing.Subscriptions;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.vertx.VertxContextSupport;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The deletes of a schedule's subscriptions, in the caller's Panache transaction or on its SQL connection. */
@QuarkusTest
@TestProfile(FastDeliveries.class)
@JobWeaverTest(database = "jobweaver_api")
class SubscriptionServiceTest {

    @Inject
    SubscriptionService subscriptions;

    @Inject
    Pool pool;

    @Test
    void deleteForScheduleInAPanacheTransactionDeletesOnlyThatSchedulesSubscriptions() throws Throwable {
        UUID schedule = UUID.randomUUID();
        String first = subscribe(schedule);
        String second = subscribe(schedule);
        String other = subscribe(UUID.randomUUID());

        // on a Vert.x context of its own, as a resource's or a consumer's transaction runs
        long deleted = VertxContextSupport.subscribeAndAwait(
                () -> Panache.withTransaction(() -> subscriptions.deleteForSchedule(schedule)));

        assertThat(deleted).isEqualTo(2);
        assertThat(JobCommands.rows("subscriptions", "id", first)).isZero();
        assertThat(JobCommands.rows("subscriptions", "id", second)).isZero();
        assertThat(JobCommands.rows("subscriptions", "id", other)).isEqualTo(1);
    }

    @Test
    void deleteForScheduleOnASqlConnectionDeletesThatSchedulesSubscriptions() throws Exception {
        UUID schedule = UUID.randomUUID();
        String id = subscribe(schedule);

        int deleted = pool.withTransaction(connection -> SubscriptionService.deleteForSchedule(connection, schedule))
                .await().atMost(Duration.ofSeconds(10));

        assertThat(deleted).isEqualTo(1);
        assertThat(JobCommands.rows("subscriptions", "id", id)).isZero();
    }

    private static String subscribe(UUID schedule) {
        return Subscriptions.create("{\"scheduleId\":\"" + schedule + "\",\"events\":[\"SCHEDULED\"],"
                + "\"url\":\"https://hooks.example.com/x\"}").then().statusCode(201).extract().jsonPath()
                .getString("id");
    }
}
