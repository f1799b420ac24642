package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Kubernetes waits long enough for the worker's in-flight runs and offset commit, and for the API to drain. */
class GracefulShutdownTest {

    /** After the grace period the worker still commits offsets and closes its Kafka clients. */
    private static final Duration COMMIT_AND_CLOSE = Duration.ofSeconds(10);

    /** The worker's configuration key (WorkerConfig, the worker runtime's microprofile-config.properties). */
    static final String GRACE_KEY = "jobweaver.worker.shutdown-grace-period";

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void workerPodOutlastsTheWorkersGracePeriod(Overlay overlay) throws IOException {
        Overlay.Workload worker = overlay.workload("worker-service");
        String configured = overlay.literalEnvironment(worker.mainContainer()).get(environmentName(GRACE_KEY));
        assertThat(configured).as("%s is set explicitly", environmentName(GRACE_KEY)).isNotBlank();
        Duration grace = quarkusDuration(configured);
        Duration longest = workerDefault().filter(d -> d.compareTo(grace) > 0).orElse(grace);
        long podGrace = worker.pod().getTerminationGracePeriodSeconds();
        assertThat(Duration.ofSeconds(podGrace)).as("terminationGracePeriodSeconds of the worker")
                .isGreaterThanOrEqualTo(longest.plus(COMMIT_AND_CLOSE));
    }

    @Test
    void theWorkerStillReadsThatKey() throws IOException {
        assertThat(workerDefault()).as("%s in the worker's settings: the manifests set it through %s", GRACE_KEY,
                environmentName(GRACE_KEY)).isPresent();
    }

    /** The unprofiled default of the worker's grace period in its settings. */
    private static Optional<Duration> workerDefault() throws IOException {
        return Optional.ofNullable(load("worker-service").getProperty(GRACE_KEY))
                .map(GracefulShutdownTest::quarkusDuration);
    }

    /** SmallRye Config's environment-variable form of a property name. */
    static String environmentName(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void apiLeavesItsEndpointsBeforeStopping(Overlay overlay) {
        Overlay.Workload api = overlay.workload("api-service");
        var preStop = api.mainContainer().getLifecycle().getPreStop();
        assertThat(preStop.getExec().getCommand()).first().isEqualTo("sleep");
        long sleep = Long.parseLong(preStop.getExec().getCommand().get(1));
        assertThat(sleep).isBetween(1L, 15L);
        assertThat(api.pod().getTerminationGracePeriodSeconds()).isGreaterThanOrEqualTo(sleep + 15);
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void rollingUpdatesNeverDropBelowTheDesiredCount(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            var deployment = overlay.get(io.fabric8.kubernetes.api.model.apps.Deployment.class, workload.name());
            assertThat(deployment.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal())
                    .as("maxUnavailable of %s", workload).isZero();
        }
    }

    /**
     * The connector stops a service's consumers one after another, each paused and then given twice its poll timeout
     * (SmallRye's default 1 s) for the records of its last poll. Summed over a service's channels that is the least
     * its stop takes; a few seconds keep a local stop and a rolling update quick, and well inside the pod's grace.
     */
    @ParameterizedTest
    @ValueSource(strings = {"api-service", "scheduler-service", "worker-service"})
    void consumersStopWithinSecondsAndWithinThePodsGrace(String service) throws IOException {
        Duration consumers = consumersGracefulStop(load(service));
        assertThat(consumers).as("%s: the sum over its consumers of twice their poll timeout", service)
                .isPositive().isLessThanOrEqualTo(CONSUMERS_STOP);
        for (Overlay overlay : Overlay.values()) {
            long podGrace = overlay.workload(service).pod().getTerminationGracePeriodSeconds();
            assertThat(consumers.plus(COMMIT_AND_CLOSE)).as("%s in %s", service, overlay)
                    .isLessThanOrEqualTo(Duration.ofSeconds(podGrace));
        }
    }

    @Test
    void sumsTwiceEachGracefulConsumersPollTimeout() {
        Properties config = new Properties();
        config.setProperty("mp.messaging.incoming.a.connector", "smallrye-kafka");
        config.setProperty("mp.messaging.incoming.b.connector", "smallrye-kafka");
        config.setProperty("mp.messaging.incoming.b.poll-timeout", "100");
        config.setProperty("mp.messaging.incoming.c.connector", "smallrye-kafka");
        config.setProperty("mp.messaging.incoming.c.graceful-shutdown", "false");
        config.setProperty("mp.messaging.outgoing.d.connector", "smallrye-kafka");
        assertThat(consumersGracefulStop(config)).isEqualTo(Duration.ofMillis(2_000 + 200));
        config.setProperty(CONNECTOR + "poll-timeout", "250");
        assertThat(consumersGracefulStop(config)).isEqualTo(Duration.ofMillis(500 + 200));
    }

    /** The longest a service's Kafka consumers may take to stop, together. */
    private static final Duration CONSUMERS_STOP = Duration.ofSeconds(4);

    private static final String CONNECTOR = "mp.messaging.connector.smallrye-kafka.";

    private static final java.util.regex.Pattern INCOMING_CONNECTOR =
            java.util.regex.Pattern.compile("mp\\.messaging\\.incoming\\.([^.]+)\\.connector");

    /** Twice the poll timeout of every incoming Kafka channel that shuts down gracefully, summed. */
    static Duration consumersGracefulStop(Properties config) {
        long connectorDefault = Long.parseLong(config.getProperty(CONNECTOR + "poll-timeout", "1000"));
        long millis = 0;
        for (String key : config.stringPropertyNames()) {
            var channel = INCOMING_CONNECTOR.matcher(key);
            if (!channel.matches() || !"smallrye-kafka".equals(config.getProperty(key))) {
                continue;
            }
            String prefix = "mp.messaging.incoming." + channel.group(1) + ".";
            if (!Boolean.parseBoolean(config.getProperty(prefix + "graceful-shutdown", "true"))) {
                continue;
            }
            millis += 2 * Long.parseLong(config.getProperty(prefix + "poll-timeout", String.valueOf(connectorDefault)));
        }
        return Duration.ofMillis(millis);
    }

    /** A service's application.properties, unprofiled and profiled keys alike. */
    private static Properties load(String service) throws IOException {
        return ServiceConfig.properties(service);
    }

    @Test
    void readsQuarkusDurations() {
        assertThat(List.of("30s", "30S", "PT30S", "30", "500ms", "1m").stream().map(GracefulShutdownTest::quarkusDuration))
                .containsExactly(Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ofSeconds(30),
                        Duration.ofSeconds(30), Duration.ofMillis(500), Duration.ofMinutes(1));
    }

    /** Quarkus's duration syntax: ISO-8601, a plain number of seconds, or a number with ms, s, m, h or d. */
    static Duration quarkusDuration(String value) {
        String text = value.trim();
        if (text.toUpperCase(Locale.ROOT).startsWith("P")) {
            return Duration.parse(text);
        }
        if (text.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(text));
        }
        var matcher = java.util.regex.Pattern.compile("(\\d+)(ms|s|m|h|d)", java.util.regex.Pattern.CASE_INSENSITIVE).matcher(text);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a Quarkus duration: " + value);
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }
}
