package dev.jobweaver.scheduler.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.jobweaver.local.KafkaBroker;
import dev.jobweaver.local.LocalStack;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's consumers of outcomes read as out of contact while the real broker is down, and in contact again,
 * from a new beginning, once it is back: what keeps the lease sweep from failing runs whose outcomes wait out an outage.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_scheduler")
class OutcomeContactOutageTest {

    @Inject
    OutcomeContact contact;

    @Test
    void contactIsLostWhileTheBrokerIsDownAndBeginsAgainWhenItIsBack() {
        Instant before = await().atMost(Duration.ofSeconds(60))
                .until(() -> contact.since(Instant.now()), since -> since != null);
        KafkaBroker kafka = LocalStack.shared().kafka();

        kafka.stop();
        Instant restarting;
        try {
            // within a session timeout of the consumers' last heartbeat, and a sample
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> contact.since(Instant.now()) == null);
        } finally {
            // start() returns once the broker answers, and the consumers may be back in their groups by then
            restarting = Instant.now();
            kafka.start();
        }

        Instant after = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> contact.since(Instant.now()), since -> since != null);
        assertThat(after).as("contact after the broker's return begins after it, not at the first contact %s", before)
                .isAfterOrEqualTo(restarting);
    }
}
