package dev.jobweaver.api.testing;

import dev.jobweaver.api.job.HeldJobCreatedPublisher;
import dev.jobweaver.api.job.outbox.HeldOutboxStore;
import dev.jobweaver.api.job.store.HeldSubmissionStore;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * The settings that single test classes need, in one profile so that Quarkus builds and starts the application once
 * for all of them instead of once per class (each profile costs its own build and start). Every setting here is inert
 * for the classes that do not test it, as its comment says; a setting that would change what another class of this
 * profile sees belongs in a profile of its own.
 */
public class PerClassSettings implements QuarkusTestProfile {

    /** How long the read model holds a non-terminal status: long enough to look at what is held. */
    public static final Duration STATUS_HOLD = Duration.ofSeconds(5);

    /** This instance's stable name, so that a test can store a row as left by its previous run. */
    public static final String INSTANCE_ID = "api-sweeper-test";

    /** Bytes of request bodies admitted at once: room for one 60 KB body, so that concurrent ones are refused. */
    public static final int ADMISSION_BUDGET = 70_000;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.ofEntries(
                // JobStatusHoldTest, JobStatusHoldRejectedTest: the hold, and offsets committed every 200 ms instead
                // of 5 s. Terminal statuses are never held, and no other class here waits for a non-terminal one.
                Map.entry("jobweaver.api.status.hold", STATUS_HOLD.toMillis() + "ms"),
                Map.entry("mp.messaging.incoming.job-status-in.auto.commit.interval.ms", "200"),
                // HookConfiguredTest: a public base URL (its trailing slash is dropped) and a 30 s window; only hook
                // urls and hook calls read them.
                Map.entry("jobweaver.api.hooks.public-base-url", "https://jobweaver.example.com/"),
                Map.entry("jobweaver.api.hooks.timestamp-tolerance", "30s"),
                // HttpEdgeRoutesAdmissionTest: the other classes send small bodies, far below the budget together.
                Map.entry("jobweaver.api.admission.max-bytes-in-flight", Integer.toString(ADMISSION_BUDGET)),
                // OutboxSweeperTest: a stable instance name, and a relay bound long enough that no recent row ages
                // into the sweep. The other classes' events reach Kafka at once or are held by the test, never
                // timed out.
                Map.entry("jobweaver.kafka.instance-id", INSTANCE_ID),
                Map.entry("jobweaver.api.publish.delivery-timeout", "120s"),
                // DeadLetterBulkRequeueTest: a hundred requeues handed to the producer at once, each of which must
                // enter it within a tenth of this; a loaded CI machine missed 0.5 s. Only a command's wait reads it.
                Map.entry("jobweaver.api.commands.timeout", "15s"),
                // JobSubmissionGroupsInFlightTest: two group inserts at once (with the held stores and publisher
                // below, which pass everything through unless a test holds them).
                Map.entry("jobweaver.api.publish.batches-in-flight", "2"),
                // JobResourceUntracedTest: traces off as `up` runs without a trace viewer (tools/launcher
                // Platform.withoutTraceViewer). A job's trace id is made and carried all the same.
                Map.entry("quarkus.otel.instrument.vertx-http", "false"),
                Map.entry("quarkus.otel.instrument.vertx-sql-client", "false"),
                Map.entry("quarkus.otel.traces.sampler.arg", "0.0"),
                // SubscriptionResourceDestinationTest: the production rule, loopback and private destinations
                // refused; retries fast, given up after 4 s. No other class here delivers a webhook.
                Map.entry("jobweaver.api.notifications.allow-private", "false"),
                Map.entry("jobweaver.api.notifications.first-retry-delay", "200ms"),
                Map.entry("jobweaver.api.notifications.give-up-after", "4s"),
                // ScheduledJobPriorityTest: schedules' jobs LOW and hooks' NORMAL unless they name one; no other class
                // here reads a priority.
                Map.entry("jobweaver.api.default-priority.schedule", "LOW"),
                Map.entry("jobweaver.api.default-priority.hook", "NORMAL"));
    }

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(HeldSubmissionStore.class, HeldOutboxStore.class, HeldJobCreatedPublisher.class);
    }
}
