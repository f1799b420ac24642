package dev.jobweaver.api.notification.service;

import dev.jobweaver.api.notification.config.NotificationConfig;
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
        String host = host(url);
        String named = rules.hostRefusal(host);
        if (named != null) {
            return named;
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return "host " + host + " does not resolve";
        }
        return rules.addressRefusal(host, addresses);
    }

    /** The URL's host as {@link Destinations} expects it: an IPv6 literal without its brackets. */
    static String host(URI url) {
        String host = url.getHost();
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
