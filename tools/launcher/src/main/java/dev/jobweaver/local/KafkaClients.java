package dev.jobweaver.local;

import java.util.function.Supplier;

/**
 * Creates Kafka clients with Kafka's own class loader as the thread's context class loader.
 *
 * <h2>Why</h2>
 * A Kafka client instantiates the classes its configuration names (the JMX metrics reporter, at least) through the
 * thread's context class loader. In a Quarkus test that loader is Quarkus' own, which loads kafka-clients a second
 * time: the reporter it makes is not the {@code MetricsReporter} this module's client knows, and the client fails with
 * a ClassCastException. Whether it does depended on which test class happened to call in first.
 */
public final class KafkaClients {

    private KafkaClients() {
    }

    /** Runs {@code create} with kafka-clients' class loader as the context class loader, then restores the old one. */
    public static <T> T create(Supplier<T> create) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(org.apache.kafka.clients.admin.Admin.class.getClassLoader());
        try {
            return create.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
