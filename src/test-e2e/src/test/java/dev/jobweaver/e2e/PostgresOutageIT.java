package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Recovery;
import dev.jobweaver.e2e.support.SubmissionLoad;
import dev.jobweaver.local.Postgres;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL (the one server behind the three databases) stops for 10 s while jobs flow, then starts again. The
 * services recover by themselves: every job answered 202 completes, submissions during the outage are answered 503
 * with Retry-After (never 500), and no service has to be restarted.
 */
@HealthyPlatform
class PostgresOutageIT {

    @Test
    void servicesRecoverByThemselvesAndNoAcceptedJobIsLost() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        Postgres postgres = E2ePlatform.get().stack().postgres();
        int exitsBefore = E2ePlatform.get().unexpectedExits();
        SubmissionLoad load = new SubmissionLoad(api, 4, 20);
        long restarted = load.around(postgres::close, () -> Thread.sleep(10_000), postgres::start, 2_000);

        assertThat(load.unexpected()).as("answers other than 202/503 (a 500 is a bug)").isEmpty();
        assertThat(load.unavailable()).as("submissions while the database was down").isNotEmpty();
        assertThat(load.unavailable()).allSatisfy(a -> {
            assertThat(a.header("Retry-After")).isNotBlank();
            assertThat(a.body().path("errorCode").asText()).isIn("API.SERVICE_UNAVAILABLE", "API.OVERLOADED");
        });
        List<UUID> accepted = load.accepted();
        double recovered = Recovery.allCompleted(api, accepted, Duration.ofMinutes(3), restarted).seconds();
        assertThat(E2ePlatform.get().unexpectedExits() - exitsBefore).as("services that died and were restarted")
                .isZero();
        System.out.printf("[measure] PostgreSQL stopped 10 s under load: %d jobs accepted, all COMPLETED within %.1f s"
                + " of its restart; %d answered 503; lost: 0; service restarts: 0%n", accepted.size(), recovered,
                load.unavailable().size());
    }
}
