package dev.jobweaver.k8s;

import dev.jobweaver.common.messaging.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What one service does with Kafka, read from its own files: the topics and consumer groups of its incoming channels
 * and the topics of its outgoing ones (application.properties), plus the topics its publishers send to by name,
 * {@code send(Topics.X, ...)}, {@code keyed(Topics.X, ...)} or {@code new TracedProducer(Topics.X, ...)}, which override
 * a channel's topic or use a producer of their own.
 *
 * @param groupPrefixes groups named per instance ({@code jobweaver-worker-commands-${quarkus.uuid}}), up to the
 *                      first expression
 */
record KafkaUsage(Set<String> consumed, Set<String> produced, Set<String> groups, Set<String> groupPrefixes,
                  Set<String> producedPrefixes, Set<String> consumedPrefixes) {

    private static final Pattern CHANNEL = Pattern.compile("mp\\.messaging\\.(incoming|outgoing)\\.([^.]+)\\.(topics?|group\\.id)");
    private static final Pattern PUBLISH = Pattern.compile("(?:send|keyed|TracedProducer)\\(\\s*Topics\\.([A-Z_]+)");
    /** A publish to a queue's run topic: the default queue's and every other queue's ({@code run-job.}...). */
    private static final Pattern PUBLISH_RUN = Pattern.compile("(?:send|keyed|TracedProducer)\\(\\s*Topics\\.runJob\\(");
    /** A worker's subscription to its queues' run topics, which it creates ({@code QueueTopics}). */
    private static final Pattern CREATE_QUEUE_TOPICS = Pattern.compile("Topics\\.RUN_JOB_QUEUE_PREFIX");

    static KafkaUsage of(String service) {
        KafkaUsage usage = new KafkaUsage(new TreeSet<>(), new TreeSet<>(), new TreeSet<>(), new TreeSet<>(),
                new TreeSet<>(), new TreeSet<>());
        usage.readChannels(ServiceConfig.properties(service));
        for (Path dir : ServiceConfig.modules(service)) {
            usage.readSources(dir, service);
        }
        return usage;
    }

    private void readSources(Path dir, String service) {
        KafkaUsage usage = this;
        try (Stream<Path> sources = Files.walk(dir.resolve("src/main/java"))) {
            for (Path source : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
                String text = Files.readString(source);
                Matcher publish = PUBLISH.matcher(text);
                while (publish.find()) {
                    usage.produced.add(topicConstant(publish.group(1)));
                }
                if (PUBLISH_RUN.matcher(text).find()) {
                    usage.produced.add(Topics.RUN_JOB);
                    usage.producedPrefixes.add(Topics.RUN_JOB_QUEUE_PREFIX);
                }
                if (CREATE_QUEUE_TOPICS.matcher(text).find() && service.equals("worker-service")) {
                    usage.consumedPrefixes.add(Topics.RUN_JOB_QUEUE_PREFIX);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void readChannels(Properties properties) {
        Set<String> incomingWithoutGroup = new TreeSet<>();
        for (String key : properties.stringPropertyNames()) {
            Matcher incomingTopic = CHANNEL.matcher(key);
            if (incomingTopic.matches() && incomingTopic.group(1).equals("incoming")
                    && !incomingTopic.group(3).equals("group.id")
                    && !properties.containsKey("mp.messaging.incoming." + incomingTopic.group(2) + ".group.id")) {
                incomingWithoutGroup.add(incomingTopic.group(2));
            }
        }
        if (!incomingWithoutGroup.isEmpty()) {
            // Its group would be the application's name, which no ACL here would know.
            throw new IllegalStateException("incoming channels without a group.id: " + incomingWithoutGroup);
        }
        for (String key : properties.stringPropertyNames()) {
            Matcher channel = CHANNEL.matcher(key);
            if (!channel.matches()) {
                continue;
            }
            String value = properties.getProperty(key).strip();
            boolean incoming = channel.group(1).equals("incoming");
            if (channel.group(3).equals("group.id")) {
                int expression = value.indexOf("${");
                (expression < 0 ? groups : groupPrefixes).add(expression < 0 ? value : value.substring(0, expression));
            } else {
                Arrays.stream(value.split(",")).map(String::strip).forEach(incoming ? consumed::add : produced::add);
            }
        }
    }

    private static String topicConstant(String name) {
        try {
            return (String) Topics.class.getField(name).get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Topics." + name + " is not a topic name", e);
        }
    }
}
