package dev.jobweaver.local;

import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.common.messaging.Topics.TopicSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.jboss.logging.Logger;

/**
 * Creates the platform's topics with their partition counts, before any service subscribes.
 *
 * <p>Idempotent: existing topics are kept; one with fewer partitions than asked is grown (Kafka cannot shrink).
 * The partition count of each topic can be overridden ({@code ./jobweaver up --partitions}, {@link TopicPartitions}).
 */
public final class TopicProvisioner {

    private static final Logger LOG = Logger.getLogger(TopicProvisioner.class);

    /** The configuration of a compacted topic: the last record per key, for {@link Topics#COMPACTED_RETENTION}. */
    static final Map<String, String> COMPACTED = Map.of(
            TopicConfig.CLEANUP_POLICY_CONFIG,
            TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
            TopicConfig.RETENTION_MS_CONFIG, String.valueOf(Topics.COMPACTED_RETENTION.toMillis()));

    private TopicProvisioner() {
    }

    /**
     * Ensures every topic of {@link Topics#ALL} exists; {@code partitionOverrides} maps topic name to count.
     *
     * @return every topic's partition count as the broker has it now: the count asked for, or more when the topic
     *         already had more
     */
    public static Map<String, Integer> ensureTopics(String bootstrapServers, Map<String, Integer> partitionOverrides) {
        List<TopicSpec> specs = Topics.ALL.stream()
                .map(t -> t.withPartitions(partitionOverrides.getOrDefault(t.name(), t.partitions())))
                .toList();
        try (Admin admin = KafkaClients.create(
                () -> Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)))) {
            for (TopicSpec spec : specs) {
                NewTopic topic = new NewTopic(spec.name(), spec.partitions(), (short) 1);
                topic.configs(configs(spec));
                try {
                    admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                    growIfNeeded(admin, spec);
                    if (!configs(spec).isEmpty()) {
                        applyConfigs(admin, spec); // a topic made by an older version keeps its settings otherwise
                    }
                }
            }
            return awaitVisible(admin, specs);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("could not create the JobWeaver topics on " + bootstrapServers, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    /** The topic-level settings {@code spec} asks for: compaction, the largest record. */
    static Map<String, String> configs(TopicSpec spec) {
        Map<String, String> configs = new java.util.HashMap<>();
        if (spec.compacted()) {
            configs.putAll(COMPACTED);
        }
        if (spec.maxMessageBytes() > 0) {
            configs.put(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, String.valueOf(spec.maxMessageBytes()));
        }
        return configs;
    }

    private static void applyConfigs(Admin admin, TopicSpec spec)
            throws ExecutionException, InterruptedException, TimeoutException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, spec.name());
        List<AlterConfigOp> ops = configs(spec).entrySet().stream()
                .map(e -> new AlterConfigOp(new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET))
                .toList();
        admin.incrementalAlterConfigs(Map.of(resource, ops)).all().get(30, TimeUnit.SECONDS);
    }

    private static void growIfNeeded(Admin admin, TopicSpec spec)
            throws ExecutionException, InterruptedException, TimeoutException {
        TopicDescription existing = admin.describeTopics(Set.of(spec.name())).allTopicNames()
                .get(30, TimeUnit.SECONDS).get(spec.name());
        int have = existing.partitions().size();
        if (have < spec.partitions()) {
            LOG.infof("growing %s from %d to %d partitions", spec.name(), have, spec.partitions());
            admin.createPartitions(Map.of(spec.name(), NewPartitions.increaseTo(spec.partitions())))
                    .all().get(30, TimeUnit.SECONDS);
        } else if (have > spec.partitions()) {
            LOG.warnf("%s has %d partitions, more than the %d asked for; Kafka cannot shrink a topic",
                    spec.name(), have, spec.partitions());
        }
    }

    /**
     * Metadata propagates asynchronously: right after creation a loaded broker may still answer "unknown topic", so
     * retry until every partition of every topic has a leader, for up to a minute, before anyone subscribes. Returns
     * each topic's partition count.
     */
    private static Map<String, Integer> awaitVisible(Admin admin, List<TopicSpec> specs)
            throws ExecutionException, InterruptedException, TimeoutException {
        Set<String> names = specs.stream().map(TopicSpec::name).collect(java.util.stream.Collectors.toSet());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            String notYet;
            try {
                Map<String, TopicDescription> descriptions =
                        admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
                boolean ready = descriptions.values().stream().allMatch(d -> d.partitions().stream()
                        .allMatch(p -> p.leader() != null && !p.leader().isEmpty()));
                boolean grown = specs.stream().allMatch(spec ->
                        descriptions.get(spec.name()).partitions().size() >= spec.partitions());
                if (ready && grown) {
                    return descriptions.entrySet().stream().collect(java.util.stream.Collectors.toUnmodifiableMap(
                            Map.Entry::getKey, e -> e.getValue().partitions().size()));
                }
                notYet = "partitions without a leader: " + descriptions;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
                notYet = e.getCause().getMessage();
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("topics not visible after 60 s: " + notYet);
            }
            Thread.sleep(200);
        }
    }
}
