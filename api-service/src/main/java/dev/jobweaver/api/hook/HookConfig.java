package dev.jobweaver.api.hook;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Typed configuration of inbound hooks ({@code jobweaver.api.hooks.*}). */
@ConfigMapping(prefix = "jobweaver.api.hooks")
public interface HookConfig {

    /**
     * How far a call's {@code X-JobWeaver-Timestamp} may be from this instance's clock, either way, before the call is
     * refused (401). It bounds how long a captured request can be replayed, and how long the replay rule must hold.
     */
    @WithDefault("5m")
    Duration timestampTolerance();

    /**
     * The API's public base URL as callers reach it (e.g. {@code https://jobweaver.example.com}); when set, a hook's
     * {@code url} is absolute under it. Unset: {@code url} is the path {@code /api/hooks/{id}}.
     */
    Optional<String> publicBaseUrl();
}
