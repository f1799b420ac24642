package dev.jobweaver.bench.chaos;

import dev.jobweaver.local.Platform.Service;

/** What a chaos run can kill: one of the three services, the Kafka broker or the PostgreSQL server. */
public enum Target {
    API(Service.API),
    SCHEDULER(Service.SCHEDULER),
    WORKER(Service.WORKER),
    KAFKA(null),
    POSTGRES(null);

    private final Service service;

    Target(Service service) {
        this.service = service;
    }

    /** The service this target is, or null for the infrastructure (which the run itself starts again). */
    public Service service() {
        return service;
    }

    /** Whether the platform's supervisor brings it back (a service), rather than the chaos run (Kafka, PostgreSQL). */
    public boolean isService() {
        return service != null;
    }

    /** How the report names it: {@code api}, {@code scheduler}, {@code worker}, {@code kafka}, {@code postgres}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
