package dev.jobweaver.worker.handler.http;

import dev.jobweaver.common.net.DestinationRules;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Typed configuration of {@code HTTP} jobs ({@code jobweaver.worker.http.*}): where they may send requests and how
 * long a request may take.
 *
 * <p>Every address a job's host resolves to is checked. Loopback, private (RFC 1918), carrier-grade NAT, link-local
 * (which holds cloud metadata endpoints), unique-local, multicast, unspecified and reserved addresses are refused
 * unless {@link #allowPrivate()} or an {@link #allowedNetworks()} entry allows them; the hosts, networks and private
 * ranges are those of {@link DestinationRules}, unset and refused by default.
 */
@ConfigMapping(prefix = "jobweaver.worker.http")
public interface HttpCallConfig extends DestinationRules {

    /** A request's timeout when its job names none ({@code payload.timeoutMs}); always cut to the attempt's deadline. */
    @WithDefault("10s")
    Duration defaultTimeout();

    /** How long connecting to a destination may take. */
    @WithDefault("5s")
    Duration connectTimeout();

    /**
     * The most bytes of a response body kept in the job's result as text (the rest is not read: {@code truncated} is
     * true); the result as a whole stays within 64 KiB, so a body that escapes to more JSON is cut shorter.
     */
    @WithDefault("16384")
    int maxBodyBytes();
}
