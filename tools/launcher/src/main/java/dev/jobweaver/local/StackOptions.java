package dev.jobweaver.local;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options `up` and `infra` share: where the data lives, the infrastructure's ports, the topics' partitions. */
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

    @Mixin
    Cli.RootOption repository;

    @Option(names = "--partitions", paramLabel = "TOPIC=N[,...]", converter = TopicPartitions.Converter.class,
            description = "Partition counts other than the defaults, for example job-created=6,run-job=6 (defaults: "
                    + StackOptions.PARTITION_DEFAULTS + "). A topic's partitions bound how many replicas share it; "
                    + "Kafka cannot remove partitions, so a count below a topic's present one changes nothing.")
    List<TopicPartitions.Asked> partitions = new ArrayList<>();

    @Option(names = "--sql-stats",
            description = "PostgreSQL keeps statistics of every statement (pg_stat_statements) and logs a sample of "
                    + "plans (auto_explain), for `./jobweaver bench`'s statements table. Costs every statement a "
                    + "little; off unless given.")
    boolean statementStats;

    /**
     * The default counts as {@code --help} states them; an annotation needs a constant, so a test checks it against
     * {@code Topics.ALL}.
     */
    static final String PARTITION_DEFAULTS =
            "1 for job-dead-letter, worker-commands, worker-heartbeats and jobweaver-quarantine; 3 for every other topic";

    /** The repository, absolute. */
    Path root() {
        return repository.root();
    }

    /** The home folder, absolute: {@code --home}, else {@code .jobweaver} in the repository. */
    Path home() {
        return home == null ? root().resolve(".jobweaver") : home.toAbsolutePath();
    }

    /** The partition counts {@code --partitions} asked for, topic name to count. */
    Map<String, Integer> askedPartitions() {
        return TopicPartitions.merge(partitions);
    }

    /**
     * Where and on which ports the infrastructure runs, with the partition counts {@code --partitions} asked for; the
     * controller listens one above the Kafka port.
     */
    LocalStack.Settings settings() {
        return settings(askedPartitions());
    }

    /** As {@link #settings()}, with these partition counts (topic name to count) instead. */
    LocalStack.Settings settings(Map<String, Integer> partitionCounts) {
        return new LocalStack.Settings(home(), kafkaPort, kafkaPort + 1, postgresPort, "512m",
                Map.copyOf(partitionCounts), false, statementStats);
    }

    /** Refuses to start when a port the infrastructure needs is taken. */
    void requireFreePorts() {
        Ports.requireFree(kafkaPort, "Kafka", "--kafka-port");
        Ports.requireFree(kafkaPort + 1, "Kafka controller", "--kafka-port");
        Ports.requireFree(postgresPort, "PostgreSQL", "--postgres-port");
    }
}
