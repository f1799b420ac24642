package dev.jobweaver.worker.testing;

import dev.jobweaver.worker.handler.http.HttpCallConfig;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** {@code jobweaver.worker.http} as a plain object, starting from the defaults. */
public record HttpSettings(Optional<List<String>> allowedHosts, Optional<List<String>> allowedNetworks,
        boolean allowPrivate, Duration defaultTimeout, Duration connectTimeout, int maxBodyBytes)
        implements HttpCallConfig {

    /** The defaults: no private or loopback address, any public host. */
    public static HttpSettings defaults() {
        return new HttpSettings(Optional.empty(), Optional.empty(), false, Duration.ofSeconds(10),
                Duration.ofSeconds(5), 16_384);
    }

    /** The defaults, and 127.0.0.1 allowed: what the tests' local servers need. */
    public static HttpSettings loopback() {
        return defaults().withNetworks("127.0.0.1/32");
    }

    public HttpSettings withHosts(String... hosts) {
        return new HttpSettings(Optional.of(List.of(hosts)), allowedNetworks, allowPrivate, defaultTimeout,
                connectTimeout, maxBodyBytes);
    }

    public HttpSettings withNetworks(String... networks) {
        return new HttpSettings(allowedHosts, Optional.of(List.of(networks)), allowPrivate, defaultTimeout,
                connectTimeout, maxBodyBytes);
    }

    public HttpSettings withAllowPrivate(boolean allow) {
        return new HttpSettings(allowedHosts, allowedNetworks, allow, defaultTimeout, connectTimeout, maxBodyBytes);
    }

    public HttpSettings withDefaultTimeout(Duration timeout) {
        return new HttpSettings(allowedHosts, allowedNetworks, allowPrivate, timeout, connectTimeout, maxBodyBytes);
    }

    public HttpSettings withMaxBodyBytes(int bytes) {
        return new HttpSettings(allowedHosts, allowedNetworks, allowPrivate, defaultTimeout, connectTimeout, bytes);
    }
}
