package dev.jobweaver.api.notification;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The destination rules of deliveries, as configured under jobweaver.api.notifications. */
class WebhookDestinationsTest {

    @Test
    void loopbackIsRefusedByDefaultNamingTheKeysThatAllowIt() {
        WebhookDestinations refusing = new WebhookDestinations(config(false, null));

        String literal = refusing.refusal(URI.create("http://127.0.0.1:9000/hooks"));
        String named = refusing.refusal(URI.create("http://localhost:9000/hooks"));
        String ipv6 = refusing.refusal(URI.create("http://[::1]:9000/hooks"));

        assertThat(literal).contains("127.0.0.1").contains("loopback").contains("webhook deliveries")
                .contains("jobweaver.api.notifications.allow-private")
                .contains("jobweaver.api.notifications.allowed-networks");
        assertThat(named).contains("localhost").contains("loopback");
        assertThat(ipv6).contains("loopback");
    }

    @Test
    void privateAndLinkLocalAddressesAreRefusedByDefault() {
        WebhookDestinations refusing = new WebhookDestinations(config(false, null));

        assertThat(refusing.refusal(URI.create("http://10.1.2.3/"))).contains("private");
        assertThat(refusing.refusal(URI.create("http://169.254.169.254/latest/meta-data"))).contains("link-local");
    }

    @Test
    void allowPrivateAllowsLoopback() {
        WebhookDestinations allowing = new WebhookDestinations(config(true, null));

        assertThat(allowing.refusal(URI.create("http://127.0.0.1:9000/hooks"))).isNull();
        assertThat(allowing.refusal(URI.create("http://localhost:9000/hooks"))).isNull();
    }

    @Test
    void aHostOutsideTheAllowedHostsIsRefusedByName() {
        WebhookDestinations named = new WebhookDestinations(config(true, List.of("*.example.com")));

        assertThat(named.refusal(URI.create("http://127.0.0.1/"))).contains("allowed-hosts");
        assertThat(named.refusal(URI.create("http://hooks.example.org/"))).contains("allowed-hosts");
    }

    private static NotificationConfig config(boolean allowPrivate, List<String> hosts) {
        return new Settings(Optional.ofNullable(hosts), Optional.empty(), allowPrivate, 64, 4, 64,
                Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(5),
                Duration.ofHours(1), Duration.ofHours(25), Duration.ofSeconds(1));
    }

    /** The notification settings as given, in the order {@link NotificationConfig} declares them. */
    private record Settings(Optional<List<String>> allowedHosts, Optional<List<String>> allowedNetworks,
                            boolean allowPrivate, int maxInFlight, int maxInFlightPerSubscription, int claimBatchSize,
                            Duration lease, Duration connectTimeout, Duration requestTimeout, Duration firstRetryDelay,
                            Duration maxRetryDelay, Duration giveUpAfter, Duration pollInterval)
            implements NotificationConfig {
    }
}
