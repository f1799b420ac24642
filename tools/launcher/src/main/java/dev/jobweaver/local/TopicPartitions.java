package dev.jobweaver.local;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.local.Platform.Service;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * How many partitions each topic gets on one machine: {@link Topics#ALL}'s defaults, what {@code --partitions} asks
 * for, and at least one partition of every topic a service's replicas share for each replica.
 *
 * <h2>Why the replicas raise the counts</h2>
 * Kafka gives a partition to one consumer of a group at a time, so a replica beyond a topic's partition count gets
 * none of that topic's records: a fourth worker on three {@code run-job} partitions would run nothing. Unless
 * {@code --partitions} names the topic, its count is raised to the replica count, and the launcher says so; a count
 * given explicitly that leaves a replica without a partition is refused, naming the topic and the count it needs.
 */
public final class TopicPartitions {

    /**
     * The most partitions {@code --partitions} gives a topic: Kafka cannot remove partitions again, and each costs the
     * local broker files and memory for as long as the home folder lives.
     */
    public static final int MAX = 100;

    /**
     * The topics whose records a service's replicas share (one consumer group per service), by service. Not
     * {@code worker-commands}: every worker reads all of it, so its partitions do not limit the workers.
     */
    static final Map<Service, List<String>> CONSUMED = Map.of(
            Service.SCHEDULER, List.of(Topics.JOB_CREATED, Topics.JOB_COMPLETED, Topics.JOB_FAILED,
                    Topics.JOB_COMMANDS, Topics.SCHEDULES, Topics.WORKFLOW_RUNS, Topics.TENANT_LIMITS),
            Service.WORKER, List.of(Topics.RUN_JOB),
            Service.API, List.of(Topics.JOB_STATUS, Topics.SCHEDULE_FIRED, Topics.WORKFLOW_PROGRESS));

    private TopicPartitions() {
    }

    /** One {@code --partitions} value: topic name to partition count, in the order given. */
    public record Asked(Map<String, Integer> counts) {
    }

    /**
     * Reads {@code job-created=6,run-job=6}: known topic names, whole counts from 1 to {@link #MAX}, each topic once.
     */
    public static final class Converter implements ITypeConverter<Asked> {
        @Override
        public Asked convert(String value) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            if (value.isBlank()) {
                throw new TypeConversionException("expected TOPIC=N[,TOPIC=N...], e.g. job-created=6,run-job=6");
            }
            for (String item : value.split(",", -1)) {
                String pair = item.strip();
                int eq = pair.indexOf('=');
                if (eq < 0) {
                    throw new TypeConversionException("'" + pair + "' is not TOPIC=N, e.g. run-job=6");
                }
                String topic = pair.substring(0, eq).strip();
                String count = pair.substring(eq + 1).strip();
                try {
                    Topics.named(topic);
                } catch (IllegalArgumentException e) {
                    throw new TypeConversionException(e.getMessage());
                }
                int n;
                try {
                    n = Integer.parseInt(count);
                } catch (NumberFormatException e) {
                    n = 0;
                }
                if (n < 1 || n > MAX) {
                    throw new TypeConversionException("'" + count + "' is not a partition count for " + topic
                            + " (a whole number from 1 to " + MAX + ")");
                }
                if (counts.putIfAbsent(topic, n) != null) {
                    throw new TypeConversionException(topic + " is named twice");
                }
            }
            return new Asked(counts);
        }
    }

    /** Every {@code --partitions} value merged; a topic named in two of them is refused. */
    static Map<String, Integer> merge(List<Asked> asked) {
        Map<String, Integer> merged = new LinkedHashMap<>();
        for (Asked one : asked) {
            one.counts().forEach((topic, count) -> {
                if (merged.putIfAbsent(topic, count) != null) {
                    throw new IllegalArgumentException("--partitions names " + topic + " twice");
                }
            });
        }
        return merged;
    }

    /**
     * What to create the topics with.
     *
     * @param counts topic name to partition count, for every topic whose count differs from its default
     * @param notes one line for each count raised to the replica count, to print before the start
     */
    public record Plan(Map<String, Integer> counts, List<String> notes) {
    }

    /**
     * The counts for {@code asked} (explicit, topic name to count) and {@code replicas} of each service.
     *
     * @throws IllegalArgumentException when an explicit count leaves a replica without a partition
     */
    public static Plan plan(Map<String, Integer> asked, Map<Service, Integer> replicas) {
        Map<String, Integer> counts = new LinkedHashMap<>(asked);
        List<String> notes = new ArrayList<>();
        for (Service service : Service.values()) {
            int n = replicas.getOrDefault(service, 1);
            for (String topic : CONSUMED.get(service)) {
                Integer explicit = asked.get(topic);
                int count = explicit != null ? explicit : Topics.named(topic).partitions();
                if (count >= n) {
                    continue;
                }
                String replicaName = replicaNoun(service, n);
                if (explicit != null) {
                    throw new IllegalArgumentException("--partitions " + topic + "=" + explicit + " leaves "
                            + (n - explicit) + " of the " + n + " " + replicaName + " without a " + topic
                            + " partition: give " + topic + " at least " + n);
                }
                counts.put(topic, Math.max(n, counts.getOrDefault(topic, 0)));
                notes.add(topic + ": " + n + " partitions, one for each of the " + n + " " + replicaName
                        + " (--partitions " + topic + "=N chooses another count)");
            }
        }
        return new Plan(counts, List.copyOf(notes));
    }

    private static String replicaNoun(Service service, int n) {
        String noun = service.module().replace("-service", "");
        return n == 1 ? noun : noun + "s";
    }

    /** {@code name:count} for every topic, in {@link Topics#ALL}'s order, as the launcher prints them. */
    public static String describe(Map<String, Integer> actual) {
        return String.join(" ", Topics.ALL.stream()
                .map(t -> t.name() + ":" + actual.getOrDefault(t.name(), t.partitions()))
                .toList());
    }
}
