package dev.jobweaver.api.testing;

import dev.jobweaver.local.LocalStack;
import java.lang.reflect.InvocationTargetException;

/**
 * Stops and starts the shared stack's Kafka broker from a test.
 *
 * <p>Why by reflection: the stack was started by the test resource on the application class loader, and a test class
 * runs on Quarkus' class loader. A call written as {@code LocalStack.shared().kafka().stop()} links the broker's class
 * on both, which the JVM refuses in some test orders ("loader constraint violation ... KafkaBroker"). Invoking the
 * methods on the object itself never names that class here.
 */
public final class Broker {

    private Broker() {
    }

    /** Stops the broker (the process ends; its data stays). */
    public static void stop() {
        call("stop");
    }

    /** Starts the broker again and waits until it answers. */
    public static void start() {
        call("start");
    }

    private static void call(String method) {
        try {
            Object stack = LocalStack.shared();
            Object kafka = stack.getClass().getMethod("kafka").invoke(stack);
            kafka.getClass().getMethod(method).invoke(kafka);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot " + method + " the test broker", e);
        }
    }
}
