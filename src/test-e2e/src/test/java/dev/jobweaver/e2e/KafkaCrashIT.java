package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Executions;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.Recovery;
import dev.jobweaver.e2e.support.SubmissionLoad;
import dev.jobweaver.local.KafkaBroker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The Kafka broker is SIGKILLed while jobs flow (no clean shutdown: the broker recovers its log at the next start) and
 * started again 5 s later. Every job answered 202 ends terminal, COMPLETED here since they are no-op jobs with retries
 * left for an attempt the crash took, and each ran at least once; submissions while the broker is gone are answered 202 like any other (the job is committed and
 * waits in the API's outbox), never 503 or 500.
 */
@HealthyPlatform
class KafkaCrashIT {

    @Test
    void noAcceptedJobIsLostWhenTheBrokerIsKilled() throws Exception {
        JobWeaverClient api = E2ePlatform.api();
        KafkaBroker kafka = E2ePlatform.get().stack().kafka();
        // Two retries: an attempt dispatched as the broker dies can be lost with it; its lease then expires and the
        // job is retried, which is how the platform recovers it. With none it would end FAILED ("lease expired"),
        // terminal and reported but not COMPLETED.
        SubmissionLoad load = new SubmissionLoad(api, 4, 20, Jobs.job("[{\"action\":\"LOG\",\"message\":\"no-op\"}]", 2));
        long restarted = load.around(kafka::kill, () -> Thread.sleep(5_000), kafka::start, 2_000);

        assertThat(load.unexpected()).as("answers other than 202/503 (a 500 is a bug)").isEmpty();
        assertThat(load.unavailable()).as("submissions answered 503 while the broker was gone").isEmpty();
        List<UUID> accepted = load.accepted();
        assertThat(accepted).isNotEmpty();
        double recovered = Recovery.allCompleted(api, accepted, Duration.ofMinutes(3), restarted).seconds();
        Map<UUID, Integer> executions = Executions.perJob(accepted);
        assertThat(executions.values()).allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(1));
        System.out.printf("[measure] Kafka SIGKILLed under load, restarted after 5 s: %d jobs accepted, all COMPLETED"
                        + " within %.1f s of the restart; 0 answered 503; executed more than once: %d; lost: 0%n",
                accepted.size(), recovered, Executions.duplicated(executions));
    }
}
