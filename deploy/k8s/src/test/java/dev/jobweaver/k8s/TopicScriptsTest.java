package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the scripts as rendered into the dev overlay's ConfigMap against a stand-in for kafka-topics.sh that keeps its
 * topics in a file: what they create, that a second run changes nothing, that a short topic is refused.
 */
class TopicScriptsTest {

    private static final String FAKE_KAFKA_TOPICS = """
            #!/bin/bash
            # kafka-topics.sh stand-in: topics live in $FAKE_STATE as "name partitions", calls are logged to $FAKE_LOG.
            echo "$*" >> "$FAKE_LOG"
            prev=""
            for arg in "$@"; do
              [ "$prev" != "--command-config" ] || { cat "$arg" >> "$FAKE_LOG"; ls -l "$arg" >> "$FAKE_LOG"; }
              prev="$arg"
            done
            touch "$FAKE_STATE"
            topic=""; partitions=""; action=""
            while [ $# -gt 0 ]; do
              case "$1" in
                --list) action=list ;;
                --create) action=create ;;
                --describe) action=describe ;;
                --topic) topic="$2"; shift ;;
                --partitions) partitions="$2"; shift ;;
              esac
              shift
            done
            case "$action" in
              list) cut -d' ' -f1 "$FAKE_STATE" ;;
              create) grep -q "^$topic " "$FAKE_STATE" || echo "$topic $partitions" >> "$FAKE_STATE" ;;
              describe) p=$(grep "^$topic " "$FAKE_STATE" | cut -d' ' -f2)
                        printf 'Topic: %s\\tTopicId: x\\tPartitionCount: %s\\tReplicationFactor: 1\\tConfigs: \\n' "$topic" "$p" ;;
            esac
            """;

    @TempDir
    Path dir;
    private Path state;
    private Path log;

    @BeforeEach
    void install() throws IOException {
        Map<String, String> scripts = Overlay.DEV.configMap("jobweaver-topic-scripts").getData();
        for (var script : scripts.entrySet()) {
            Files.writeString(dir.resolve(script.getKey()), script.getValue());
        }
        Path fake = Files.writeString(dir.resolve("kafka-topics.sh"), FAKE_KAFKA_TOPICS);
        fake.toFile().setExecutable(true);
        state = dir.resolve("topics.state");
        log = dir.resolve("calls.log");
    }

    @Test
    void createsEveryTopicWithItsPartitionsAndCompactsOnlyTheKeyedStateTopics() throws Exception {
        Run run = run("create-topics.sh", 30);
        assertThat(run.exitCode()).as(run.output()).isZero();
        Map<String, Integer> created = readState();
        for (Topics.TopicSpec topic : Topics.ALL) {
            assertThat(created).containsEntry(topic.name(), topic.partitions());
        }
        List<String> creates = Files.readAllLines(log).stream().filter(line -> line.contains("--create")).toList();
        assertThat(creates).hasSize(Topics.ALL.size()).allMatch(line -> line.contains("--if-not-exists"))
                .allMatch(line -> line.contains("min.insync.replicas=1"));
        List<String> compacted = creates.stream().filter(line -> line.contains("cleanup.policy=compact")).toList();
        assertThat(compacted).hasSize(4)
                .allMatch(line -> line.contains("cleanup.policy=compact,delete"))
                .allMatch(line -> line.contains("retention.ms=" + Topics.COMPACTED_RETENTION.toMillis()));
        assertThat(compacted).anyMatch(line -> line.contains("--topic " + Topics.JOB_STATUS + " "))
                .anyMatch(line -> line.contains("--topic " + Topics.SCHEDULES + " "))
                .anyMatch(line -> line.contains("--topic " + Topics.TENANT_LIMITS + " "))
                .anyMatch(line -> line.contains("--topic " + Topics.WORKER_HEARTBEATS + " "));
    }

    @Test
    void aSecondRunChangesNothing() throws Exception {
        assertThat(run("create-topics.sh", 30).exitCode()).isZero();
        String first = Files.readString(state);
        Run again = run("create-topics.sh", 30);
        assertThat(again.exitCode()).as(again.output()).isZero();
        assertThat(Files.readString(state)).isEqualTo(first);
    }

    @Test
    void refusesATopicThatExistsWithTooFewPartitions() throws Exception {
        Files.writeString(state, Topics.RUN_JOB + " 1\n");
        Run run = run("create-topics.sh", 30);
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.output()).contains("topic run-job has 1 partitions, 3 required; grow it with: "
                + "kafka-topics.sh --alter --topic run-job --partitions 3");
    }

    @Test
    void servicesStartOnceEveryTopicExists() throws Exception {
        assertThat(run("create-topics.sh", 30).exitCode()).isZero();
        Run run = run("wait-for-topics.sh", 30);
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("all topics present");
    }

    @Test
    void servicesKeepWaitingWhileATopicIsMissing() throws Exception {
        StringBuilder partial = new StringBuilder();
        Topics.ALL.stream().filter(t -> !t.name().equals(Topics.JOB_STATUS))
                .forEach(t -> partial.append(t.name()).append(' ').append(t.partitions()).append('\n'));
        Files.writeString(state, partial);
        Run run = run("wait-for-topics.sh", 2);
        assertThat(run.exitCode()).as("still waiting when stopped").isEqualTo(-1);
        assertThat(run.output()).contains("waiting for topics: job-status");
    }

    @Test
    void withSaslSettingsTheScriptsHandTheCliTheServicesKafkaSettingsReadableByTheirUserOnly() throws Exception {
        Map<String, String> sasl = Map.of("KAFKA_SECURITY_PROTOCOL", "SASL_SSL", "KAFKA_SASL_MECHANISM", "SCRAM-SHA-512",
                "KAFKA_SASL_JAAS_CONFIG", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"jobweaver\" password=\"s3cret\";", "TMPDIR", dir.toString());
        assertThat(run("create-topics.sh", 30, sasl).exitCode()).isZero();
        assertThat(run("wait-for-topics.sh", 30, sasl).exitCode()).isZero();

        String calls = Files.readString(log);
        assertThat(calls).contains("--command-config " + dir.resolve("jobweaver-kafka-client.properties"),
                "security.protocol=SASL_SSL", "sasl.mechanism=SCRAM-SHA-512",
                "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
                        + "username=\"jobweaver\" password=\"s3cret\";", "-rw------- ");
    }

    @Test
    void withoutSaslSettingsTheCliGetsNoClientConfiguration() throws Exception {
        assertThat(run("create-topics.sh", 30).exitCode()).isZero();
        assertThat(Files.readString(log)).doesNotContain("--command-config");
    }

    private record Run(int exitCode, String output) {
    }

    /** Runs a script with the dev overlay's topic configuration; exit code -1 when it was still running at the timeout. */
    private Run run(String script, long timeoutSeconds) throws Exception {
        return run(script, timeoutSeconds, Map.of());
    }

    /** As {@link #run(String, long)}, with {@code extra} added to the environment. */
    private Run run(String script, long timeoutSeconds, Map<String, String> extra) throws Exception {
        Map<String, String> topics = Overlay.DEV.configMap("jobweaver-topics").getData();
        Path output = dir.resolve(script + ".out");
        ProcessBuilder builder = new ProcessBuilder("bash", dir.resolve(script).toString())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        Map<String, String> env = builder.environment();
        env.putAll(new HashMap<>(topics));
        env.put("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092");
        env.put("KAFKA_TOPICS_SH", dir.resolve("kafka-topics.sh").toString());
        env.put("KAFKA_CLIENT_PROPERTIES", dir.resolve("absent.properties").toString());
        env.put("FAKE_STATE", state.toString());
        env.put("FAKE_LOG", log.toString());
        env.remove("KAFKA_SECURITY_PROTOCOL");
        env.putAll(extra);
        Process process = builder.start();
        int exit;
        if (process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            exit = process.exitValue();
        } else {
            process.destroy();
            process.waitFor(5, TimeUnit.SECONDS);
            exit = -1;
        }
        return new Run(exit, Files.readString(output, StandardCharsets.UTF_8));
    }

    private Map<String, Integer> readState() throws IOException {
        Map<String, Integer> topics = new HashMap<>();
        for (String line : Files.readAllLines(state)) {
            String[] parts = line.split(" ");
            topics.put(parts[0], Integer.parseInt(parts[1]));
        }
        return topics;
    }
}
