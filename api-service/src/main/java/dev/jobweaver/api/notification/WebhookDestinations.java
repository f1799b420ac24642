package dev.jobweaver.api.notification;

import dev.jobweaver.common.net.Destinations;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;

/**
 * Where webhooks may be delivered: the allow rules of {@code HTTP} jobs ({@link Destinations}), configured under
 * {@code jobweaver.api.notifications}. A subscription's host is judged when it is created, and every address it
 * resolves to again at each attempt, since DNS may have changed in between.
 *
 * <p>Blocking: {@link #refusal} resolves the host; call it on a virtual thread, never on an event loop.
 */
@ApplicationScoped
public class WebhookDestinations {

    private final Destinations rules;

    public WebhookDestinations(NotificationConfig config) {
        this.rules = new Destinations(NotificationConfig.PREFIX, "webhook deliveries", config);
    }

    /** Why a request to {@code url} may not be sent now, or null: its host name, then every address it has. */
    public String refusal(URI url) {
        return refusal(url, true);
    }

    /**
     * Why a subscription to {@code url} is refused, or null: as {@link #refusal}, except that a host that does not
     * resolve now is accepted. A name whose DNS fails for a moment must not make a subscription a 400; each attempt
     * judges its addresses again, and one that finds none is recorded and retried.
     */
    public String subscriptionRefusal(URI url) {
        return refusal(url, false);
    }

    private String refusal(URI url, boolean unresolvedRefused) {
        String host = host(url);
        String named = rules.hostRefusal(host);
        if (named != null) {
            return named;
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return unresolvedRefused ? "host " + host + " does not resolve" : null;
        }
        return rules.addressRefusal(host, addresses);
    }

    /** The URL's host as {@link Destinations} expects it: an IPv6 literal without its brackets. */
    static String host(URI url) {
        String host = url.getHost();
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
