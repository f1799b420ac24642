package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker started again on its ports waits out a port that is still taken for a moment, rather than fail. */
class KafkaBrokerRestartTest {

    @TempDir
    Path home;

    @Test
    void aRestartWhoseControllerPortIsTakenForAMomentStartsOnceItIsFree() throws Exception {
        int port = Ports.stable();
        int controller = Ports.stable();
        try (KafkaBroker broker = new KafkaBroker(home, port, controller, "256m",
                LocalStack.Settings.ephemeral().kafkaJvmOptions())) {
            broker.start();
            broker.stop();

            ServerSocket squatter = new ServerSocket(controller, 1, InetAddress.getLoopbackAddress());
            // The port is given back once the broker has met it taken, however long its JVM took to get there: a
            // release after a fixed time could come before the broker ever tried, and prove nothing.
            CompletableFuture<Void> released = CompletableFuture.runAsync(() -> {
                try {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                    while (!metTheSquatter(broker) && System.nanoTime() < deadline) {
                        TimeUnit.MILLISECONDS.sleep(100);
                    }
                    squatter.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            broker.start();

            released.get(10, TimeUnit.SECONDS);
            assertThat(broker.isRunning()).isTrue();
            assertThat(metTheSquatter(broker)).as("the broker met the port taken, then started").isTrue();
        }
    }

    private static boolean metTheSquatter(KafkaBroker broker) {
        try {
            return Files.exists(broker.logFile()) && Files.readString(broker.logFile()).contains("Address already in use");
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
