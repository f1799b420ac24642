package dev.jobweaver.common.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** How the services register a counter: its name, what it counts and its tags, nothing else. */
public final class Counters {

    private Counters() {
    }

    /**
     * The counter {@code name} with {@code tags} (key, value, key, value...), described by {@code description} and
     * registered in {@code registry}, or the one registered there already. Thread-safe.
     */
    public static Counter of(MeterRegistry registry, String name, String description, String... tags) {
        return Counter.builder(name).description(description).tags(tags).register(registry);
    }
}
