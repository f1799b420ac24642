package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalStackTest {

    private static LocalStack stack;

    @BeforeAll
    static void start() {
        stack = new LocalStack(LocalStack.Settings.ephemeral());
        stack.start();
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers()));
    }

    @Test
    void createsEveryTopicWithItsPartitionCount() throws Exception {
        try (Admin admin = admin()) {
            Map<String, TopicDescription> topics = admin.describeTopics(
                    Topics.ALL.stream().map(Topics.TopicSpec::name).toList()).allTopicNames().get(10, TimeUnit.SECONDS);
            Map<String, Integer> counts = topics.entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().partitions().size()));
            assertThat(counts).containsExactlyInAnyOrderEntriesOf(Topics.ALL.stream()
                    .collect(Collectors.toMap(Topics.TopicSpec::name, Topics.TopicSpec::partitions)));
        }
    }

    @Test
    void reportsEveryTopicsPartitionCount() {
        assertThat(stack.partitions()).isEqualTo(Topics.ALL.stream()
                .collect(Collectors.toMap(Topics.TopicSpec::name, Topics.TopicSpec::partitions)));
    }

    @Test
    @Order(Integer.MAX_VALUE) // grows a topic for good, and the other tests expect the defaults
    void growsATopicToTheCountAskedForAndNeverShrinksIt() throws Exception {
        Map<String, Integer> grown = TopicProvisioner.ensureTopics(stack.kafkaBootstrapServers(),
                Map.of(Topics.JOB_DEAD_LETTER, 4));
        assertThat(grown).containsEntry(Topics.JOB_DEAD_LETTER, 4).containsEntry(Topics.RUN_JOB, 3)
                .hasSize(Topics.ALL.size());
        try (Admin admin = admin()) {
            assertThat(admin.describeTopics(List.of(Topics.JOB_DEAD_LETTER)).allTopicNames().get(10, TimeUnit.SECONDS)
                    .get(Topics.JOB_DEAD_LETTER).partitions()).hasSize(4);
        }
        assertThat(TopicProvisioner.ensureTopics(stack.kafkaBootstrapServers(), Map.of()))
                .as("asking for the default again leaves the grown topic as it is")
                .containsEntry(Topics.JOB_DEAD_LETTER, 4);
    }

    @Test
    void compactsTheStatusTopicAndDeletesWhatIsOlderThanTheRetention() throws Exception {
        try (Admin admin = admin()) {
            assertCompactedWithRetention(admin);
        }
    }

    @Test
    void anExistingStatusTopicCompactedForeverGetsTheRetention() throws Exception {
        try (Admin admin = admin()) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, Topics.JOB_STATUS);
            // As an install made before the retention existed left it.
            admin.incrementalAlterConfigs(Map.of(resource, List.of(
                    new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("retention.ms", ""), AlterConfigOp.OpType.DELETE))))
                    .all().get(10, TimeUnit.SECONDS);

            TopicProvisioner.ensureTopics(stack.kafkaBootstrapServers(), Map.of());

            assertCompactedWithRetention(admin);
        }
    }

    private static void assertCompactedWithRetention(Admin admin) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, Topics.JOB_STATUS);
        var config = admin.describeConfigs(List.of(resource)).all().get(10, TimeUnit.SECONDS).get(resource);
        assertThat(config.get("cleanup.policy").value()).isEqualTo("compact,delete");
        assertThat(config.get("retention.ms").value()).isEqualTo(String.valueOf(Topics.COMPACTED_RETENTION.toMillis()));
    }

    @Test
    void aConsumerOfAnUnknownTopicDoesNotCreateIt() throws Exception {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "probe",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.subscribe(List.of("not-a-jobweaver-topic"));
            consumer.poll(java.time.Duration.ofSeconds(2));
        }
        try (Admin admin = admin()) {
            Set<String> names = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            assertThat(names).doesNotContain("not-a-jobweaver-topic");
        }
    }

    @Test
    void createsTheThreeServiceDatabases() throws Exception {
        for (String database : Postgres.DATABASES) {
            try (Connection c = DriverManager.getConnection(stack.postgres().jdbcUrl(database), Postgres.USER,
                    Postgres.PASSWORD); ResultSet rs = c.createStatement().executeQuery("SELECT current_database()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(database);
            }
        }
    }

    @Test
    void flushesEveryCommitToDisk() throws Exception {
        // The embedded server's own defaults turn both off; an accepted job must survive a crash of the machine.
        try (Connection c = DriverManager.getConnection(stack.postgres().jdbcUrl(Postgres.DATABASES.getFirst()),
                Postgres.USER, Postgres.PASSWORD); ResultSet rs = c.createStatement().executeQuery(
                "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit')")) {
            Map<String, String> settings = new HashMap<>();
            while (rs.next()) {
                settings.put(rs.getString(1), rs.getString(2));
            }
            assertThat(settings).containsOnly(Map.entry("fsync", "on"), Map.entry("synchronous_commit", "on"));
        }
    }

    @Test
    void aStackWhosePostgresCannotStartFailsInsteadOfComingUpWithoutIt() throws Exception {
        LocalStack.Settings settings = LocalStack.Settings.ephemeral();
        // PostgreSQL's folder is taken by a plain file, so its start fails while Kafka's succeeds.
        java.nio.file.Files.writeString(settings.home().resolve("postgres"), "not a folder");
        LocalStack broken = new LocalStack(settings);
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(broken::start)
                    .hasMessageContaining("PostgreSQL");
        } finally {
            broken.close();
        }
    }

    @Test
    void keepsRecordsAcrossABrokerRestart() throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(Topics.JOB_DEAD_LETTER, "k", "before-restart")).get(10, TimeUnit.SECONDS);
        }
        stack.kafka().stop();
        assertThat(stack.kafka().isRunning()).isFalse();
        stack.kafka().start();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "restart-check",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.subscribe(List.of(Topics.JOB_DEAD_LETTER));
            List<String> values = new java.util.ArrayList<>();
            long deadline = System.currentTimeMillis() + 20_000;
            while (values.isEmpty() && System.currentTimeMillis() < deadline) {
                consumer.poll(java.time.Duration.ofMillis(500)).forEach(r -> values.add(r.value()));
            }
            assertThat(values).contains("before-restart");
        }
    }
}
