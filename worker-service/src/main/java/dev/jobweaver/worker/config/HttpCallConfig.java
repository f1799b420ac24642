package dev.jobweaver.worker.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Typed configuration of {@code HTTP} jobs ({@code jobweaver.worker.http.*}): where they may send requests and how
 * long a request may take.
 *
 * <p>Every address a job's host resolves to is checked. Loopback, private (RFC 1918), carrier-grade NAT, link-local
 * (which holds cloud metadata endpoints), unique-local, multicast, unspecified and reserved addresses are refused
 * unless {@link #allowPrivate()} or an {@link #allowedNetworks()} entry allows them.
 */
@ConfigMapping(prefix = "jobweaver.worker.http")
public interface HttpCallConfig {

    /**
     * The host names HTTP jobs may call: a name ({@code api.example.com}), a name's subdomains
     * ({@code *.example.com}) or an IP literal as written in the URL; unset: any host whose addresses are allowed.
     */
    Optional<List<String>> allowedHosts();

    /**
     * Networks (CIDR such as {@code 10.20.0.0/16}, or a single address) HTTP jobs may reach even inside the ranges
     * refused by default: an internal service, without opening every private address.
     */
    Optional<List<String>> allowedNetworks();

    /** Whether HTTP jobs may reach every refused range (loopback, private, link-local, ...): a trusted network only. */
    @WithDefault("false")
    boolean allowPrivate();

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
