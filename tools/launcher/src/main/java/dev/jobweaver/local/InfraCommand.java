package dev.jobweaver.local;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code jobweaver infra}: only Kafka and PostgreSQL, for running a service in Quarkus dev mode against them. */
@Command(name = "infra",
        header = "Start only Kafka and PostgreSQL (for a service in Quarkus dev mode); Ctrl-C stops them.")
public final class InfraCommand implements Callable<Integer> {

    @Mixin
    Cli.HelpOption help;

    @Mixin
    StackOptions stack;

    @Override
    public Integer call() {
        JobWeaverLocal.quietInfrastructureLogs();
        LocalStack.Settings settings = stack.settings();
        stack.requireFreePorts();
        LocalStack infrastructure = new LocalStack(settings);
        CountDownLatch stopped = JobWeaverLocal.onShutdown(infrastructure::close);
        infrastructure.start();
        System.out.println("JobWeaver infrastructure is up:");
        System.out.println("  Kafka       " + infrastructure.kafkaBootstrapServers());
        System.out.println("  PostgreSQL  127.0.0.1:" + settings.postgresPort() + " ("
                + String.join(", ", Postgres.DATABASES) + "; user " + Postgres.USER + ")");
        System.out.println("  partitions  " + TopicPartitions.describe(infrastructure.partitions()));
        System.out.println("Press Ctrl-C to stop.");
        JobWeaverLocal.await(stopped);
        return 0;
    }
}
