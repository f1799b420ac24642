package dev.jobweaver.worker.testing;

import dev.jobweaver.local.LocalStack;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.jobweaver.common.event.JobCommandEvent;
import dev.jobweaver.common.event.RunJobEvent;
import dev.jobweaver.common.job.JobCommand;
import dev.jobweaver.common.job.JobControl;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.common.job.Payloads;
import dev.jobweaver.common.job.Step;
import dev.jobweaver.common.messaging.EventIds;
import dev.jobweaver.common.messaging.Headers;
import dev.jobweaver.common.messaging.Topics;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Plain Kafka clients for the worker's integration tests: produce runs and commands, read outcomes and committed
 * offsets.
 */
public final class WorkerKafka implements AutoCloseable {

    /** The worker's consumer group (application.properties). */
    public static final String GROUP = "jobweaver-workers";

    public static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final KafkaProducer<String, String> producer;
    private final Admin admin;
    private final OutcomeReader outcomes;

    /** An outcome event as read from job-completed or job-failed. */
    public record Outcome(String topic, String key, String eventIdHeader, JsonNode value) {
        public String errorMessage() {
            return value.path("errorMessage").asText(null);
        }
    }

    public WorkerKafka() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producer = new KafkaProducer<>(p);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        outcomes = new OutcomeReader();
    }

    public static String bootstrap() {
        return LocalStack.shared().kafkaBootstrapServers();
    }

    /** A first attempt of a new job with these steps. */
    public static RunJobEvent run(Step... steps) {
        UUID jobId = UUID.randomUUID();
        return new RunJobEvent(EventIds.runEventId(jobId, 1), jobId, 1, JobType.SIMULATION,
                new JobPayload(List.of(steps)), null, Instant.now(), Instant.now(), Instant.now().plusSeconds(600));
    }

    /** A first attempt of a new job of {@code type}: {@code payload} (the type's record) under {@code control}. */
    public static RunJobEvent run(JobType type, Object payload, JobControl control) {
        UUID jobId = UUID.randomUUID();
        return new RunJobEvent(EventIds.runEventId(jobId, 1), jobId, 1, type, Payloads.tree(payload), null,
                Instant.now(), Instant.now(), Instant.now().plusSeconds(600), control);
    }

    /**
     * Attempt {@code attempt} of {@code run}'s job with {@code payload} (its type's record, as a tree), dispatched now:
     * a run with an eventId of its own, as a retry or a requeue sends it.
     */
    public static RunJobEvent attempt(RunJobEvent run, int attempt, JsonNode payload) {
        return new RunJobEvent(EventIds.runEventId(run.jobId(), attempt), run.jobId(), attempt, run.jobType(), payload,
                run.traceId(), run.createdAt(), Instant.now(), Instant.now().plusSeconds(600), run.control());
    }

    /** Sends {@code event} (to {@code partition}, or by key when null) and returns where it landed. */
    public RecordMetadata send(RunJobEvent event, Integer partition) {
        try {
            return sendRaw(event.jobId().toString(), JSON.writeValueAsString(event), event.eventId(), partition, null);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code event} by key in the trace of the W3C {@code traceparent}, as a scheduler sends a traced run. */
    public RecordMetadata sendInTrace(RunJobEvent event, String traceparent) {
        try {
            return sendRaw(event.jobId().toString(), JSON.writeValueAsString(event), event.eventId(), null,
                    traceparent);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends any value to run-job. */
    public RecordMetadata sendRaw(String key, String value, UUID eventId, Integer partition, String traceparent) {
        return sendTo(Topics.RUN_JOB, key, value, eventId, partition, traceparent);
    }

    /** A command of the scheduler about job {@code jobId}, as it publishes it on worker-commands. */
    /** Sends {@code run} by key to {@code topic}: a queue's own run topic. */
    public RecordMetadata sendTo(String topic, RunJobEvent run) {
        try {
            return sendTo(topic, run.jobId().toString(), JSON.writeValueAsString(run), run.eventId(), null, null);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static JobCommandEvent command(UUID jobId, JobCommand command) {
        return new JobCommandEvent(jobId, command, null, Instant.now());
    }

    /** Sends {@code command} to worker-commands, keyed by its jobId, with a fresh eventId header. */
    public RecordMetadata send(JobCommandEvent command) {
        return send(command, null);
    }

    /** As {@link #send(JobCommandEvent)}, in the trace of the W3C {@code traceparent} (null for none). */
    public RecordMetadata send(JobCommandEvent command, String traceparent) {
        try {
            return sendTo(Topics.WORKER_COMMANDS, command.jobId().toString(), JSON.writeValueAsString(command),
                    UUID.randomUUID(), null, traceparent);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private RecordMetadata sendTo(String topic, String key, String value, UUID eventId, Integer partition,
            String traceparent) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, partition, key, value);
        if (eventId != null) {
            record.headers().add(Headers.EVENT_ID, eventId.toString().getBytes(StandardCharsets.UTF_8));
        }
        if (traceparent != null) {
            record.headers().add(Headers.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
        }
        try {
            return producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not send to " + topic, e);
        }
    }

    /** Outcomes read so far for {@code jobId}, in the order they arrived. */
    public List<Outcome> outcomes(UUID jobId) {
        return outcomes.received.stream().filter(o -> jobId.toString().equals(o.key())).toList();
    }

    /** The worker group's committed offset and metadata of run-job partition {@code partition}, or null. */
    public OffsetAndMetadata committed(int partition) {
        try {
            return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS)
                    .get(new TopicPartition(Topics.RUN_JOB, partition));
        } catch (Exception e) {
            throw new IllegalStateException("could not read committed offsets", e);
        }
    }

    @Override
    public void close() {
        outcomes.close();
        producer.close(Duration.ofSeconds(5));
        admin.close(Duration.ofSeconds(5));
    }

    /**
     * Reads job-completed and job-failed from the beginning in a fresh group, in the background. The broker answers its
     * idle fetches within 50 ms rather than the default 500: closing the consumer waits for the fetch in flight.
     */
    private static final class OutcomeReader implements AutoCloseable {

        private final List<Outcome> received = new CopyOnWriteArrayList<>();
        private final Thread thread;
        private volatile boolean running = true;

        OutcomeReader() {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-outcomes-" + UUID.randomUUID());
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "50");
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p);
            consumer.subscribe(List.of(Topics.JOB_COMPLETED, Topics.JOB_FAILED));
            thread = Thread.ofPlatform().daemon().name("test-outcome-reader").start(() -> {
                try (consumer) {
                    while (running) {
                        List<Outcome> batch = new ArrayList<>();
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                            Header h = r.headers().lastHeader(Headers.EVENT_ID);
                            try {
                                batch.add(new Outcome(r.topic(), r.key(),
                                        h == null ? null : new String(h.value(), StandardCharsets.UTF_8),
                                        JSON.readTree(r.value())));
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        }
                        received.addAll(batch);
                    }
                }
            });
        }

        @Override
        public void close() {
            running = false;
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
