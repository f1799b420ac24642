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
        return new NotificationConfig() {
            @Override
            public Optional<List<String>> allowedHosts() {
                return Optional.ofNullable(hosts);
            }

            @Override
            public Optional<List<String>> allowedNetworks() {
                return Optional.empty();
            }

            @Override
            public boolean allowPrivate() {
                return allowPrivate;
            }

            @Override
            public int maxInFlight() {
                return 64;
            }

            @Override
            public int maxInFlightPerSubscription() {
                return 4;
            }

            @Override
            public int claimBatchSize() {
                return 64;
            }

            @Override
            public Duration lease() {
                return Duration.ofSeconds(60);
            }

            @Override
            public Duration connectTimeout() {
                return Duration.ofSeconds(5);
            }

            @Override
            public Duration requestTimeout() {
                return Duration.ofSeconds(10);
            }

            @Override
            public Duration firstRetryDelay() {
                return Duration.ofSeconds(5);
            }

            @Override
            public Duration maxRetryDelay() {
                return Duration.ofHours(1);
            }

            @Override
            public Duration giveUpAfter() {
                return Duration.ofHours(25);
            }

            @Override
            public Duration pollInterval() {
                return Duration.ofSeconds(1);
            }
        };
    }
}
