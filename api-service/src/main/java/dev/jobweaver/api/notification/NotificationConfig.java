package dev.jobweaver.api.notification;

import dev.jobweaver.common.net.DestinationRules;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Typed configuration of notifications ({@code jobweaver.api.notifications.*}): where webhooks may be delivered (the
 * same rules as {@code HTTP} jobs, {@link DestinationRules}), how many are sent at once, and how long they are retried.
 */
@ConfigMapping(prefix = "jobweaver.api.notifications")
public interface NotificationConfig extends DestinationRules {

    /** The configuration prefix, for the messages of refused destinations. */
    String PREFIX = "jobweaver.api.notifications";

    /**
     * Host names deliveries may go to: {@code api.example.com}, {@code *.example.com} or an IP literal; unset: any host
     * whose addresses are allowed.
     */
    @Override
    Optional<List<String>> allowedHosts();

    /** Networks (CIDR or an address) deliveries may reach although they lie in a range refused by default. */
    @Override
    Optional<List<String>> allowedNetworks();

    /**
     * Whether deliveries may reach loopback, private, link-local and the other ranges refused by default. Off in
     * production; {@code %dev} and {@code %test} turn it on (a platform on a laptop notifies local services).
     */
    @Override
    @WithDefault("false")
    boolean allowPrivate();

    /** Most deliveries being sent at once by this instance. */
    @WithDefault("64")
    int maxInFlight();

    /**
     * Most deliveries of one subscription being sent at once by this instance: an endpoint that never answers holds at
     * most these slots, and the others keep flowing.
     */
    @WithDefault("4")
    int maxInFlightPerSubscription();

    /** Most due deliveries one claim takes (never more than the free slots). */
    @WithDefault("64")
    int claimBatchSize();

    /**
     * How long a claimed delivery is leased to the instance sending it; if that instance dies mid-send, the delivery is
     * due again once the lease ends. Longer than connect-timeout plus request-timeout, so a live send never loses it.
     */
    @WithDefault("60s")
    Duration lease();

    /** How long a delivery waits for the subscriber's TCP (and TLS) connection. */
    @WithDefault("5s")
    Duration connectTimeout();

    /** How long a delivery waits for the subscriber's answer once connected. */
    @WithDefault("10s")
    Duration requestTimeout();

    /** The delay before the first retry; each later retry waits twice as long, up to max-retry-delay, with jitter. */
    @WithDefault("5s")
    Duration firstRetryDelay();

    /** The longest delay between two attempts. */
    @WithDefault("1h")
    Duration maxRetryDelay();

    /**
     * How long after its creation a delivery is retried; a failed attempt after that makes it GIVEN_UP. At least 24 h in
     * production (SPEC); a test profile shortens it.
     */
    @WithDefault("25h")
    Duration giveUpAfter();

    /** How often the sender looks for due deliveries without being woken: retries coming due, another instance's. */
    @WithDefault("1s")
    Duration pollInterval();
}
