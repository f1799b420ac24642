package dev.jobweaver.local;

import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options `up` and `infra` share: where the data lives and the infrastructure's ports. */
public final class StackOptions {

    @Option(names = "--kafka-port", paramLabel = "P", converter = Cli.Port.class,
            description = "Kafka client port (default: ${DEFAULT-VALUE}); the controller uses P+1.")
    int kafkaPort = 9092;

    @Option(names = "--postgres-port", paramLabel = "P", converter = Cli.Port.class,
            description = "PostgreSQL port (default: ${DEFAULT-VALUE}).")
    int postgresPort = 5432;

    @Option(names = "--home", paramLabel = "DIR",
            description = "Data, logs and configuration; they survive restarts (default: .jobweaver in the repository).")
    Path home;

    @Option(names = "--root", paramLabel = "DIR",
            description = "The repository (default: the current directory; the jobweaver script passes its own folder).")
    Path root;

    /** The repository, absolute. */
    Path root() {
        return (root == null ? Path.of("") : root).toAbsolutePath();
    }

    /** The home folder, absolute: {@code --home}, else {@code .jobweaver} in the repository. */
    Path home() {
        return home == null ? root().resolve(".jobweaver") : home.toAbsolutePath();
    }

    /** Where and on which ports the infrastructure runs; the controller listens one above the Kafka port. */
    LocalStack.Settings settings() {
        return new LocalStack.Settings(home(), kafkaPort, kafkaPort + 1, postgresPort, "512m", Map.of(), false);
    }

    /** Refuses to start when a port the infrastructure needs is taken. */
    void requireFreePorts() {
        Ports.requireFree(kafkaPort, "Kafka", "--kafka-port");
        Ports.requireFree(kafkaPort + 1, "Kafka controller", "--kafka-port");
        Ports.requireFree(postgresPort, "PostgreSQL", "--postgres-port");
    }
}
