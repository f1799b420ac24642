package dev.jobweaver.common.net;

import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/**
 * The configuration of {@link Destinations}: a service's {@code @ConfigMapping} for outbound requests extends it, so
 * that HTTP jobs and webhook deliveries are configured alike.
 *
 * <p>Loopback, private (RFC 1918), carrier-grade NAT, link-local (which holds cloud metadata endpoints), unique-local,
 * multicast, unspecified and reserved addresses are refused unless {@link #allowPrivate()} or an
 * {@link #allowedNetworks()} entry allows them.
 */
public interface DestinationRules {

    /**
     * The host names requests may go to: a name ({@code api.example.com}), a name's subdomains ({@code *.example.com})
     * or an IP literal as written in the URL; unset: any host whose addresses are allowed.
     */
    Optional<List<String>> allowedHosts();

    /**
     * Networks (CIDR such as {@code 10.20.0.0/16}, or a single address) requests may reach even inside the ranges
     * refused by default: an internal service, without opening every private address.
     */
    Optional<List<String>> allowedNetworks();

    /**
     * Whether requests may reach every refused range (loopback, private, link-local, ...): a trusted network only.
     * Off unless configured.
     */
    @WithDefault("false")
    boolean allowPrivate();
}
