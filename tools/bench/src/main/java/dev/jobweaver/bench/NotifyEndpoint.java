package dev.jobweaver.bench;

import static dev.jobweaver.bench.ApiText.instant;
import static dev.jobweaver.bench.ApiText.uuid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The notify workload's webhook endpoint, in the bench's own process: the JDK's HTTP server on 127.0.0.1 at a port
 * the system picks, one virtual thread per request. It notes when each delivery arrived, keeps its headers and body
 * as they came, and answers 204 to every POST, whatever its signature: a refusal would make the platform retry it,
 * which the figures would count as duplicates. Signatures are checked afterwards ({@link Notifications}), against the
 * secret of the subscription the delivery names.
 *
 * <p>Why not the tests' {@code WebhookReceiver} (module testing): that one refuses what does not verify and keeps
 * every delivery in a copy-on-write list; this one must accept everything, stay cheap under thousands of deliveries
 * and take the time of arrival before reading the body.
 */
public final class NotifyEndpoint implements AutoCloseable {

    /** The path the subscriptions name. */
    static final String PATH = "/hook";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One delivery as it arrived.
     *
     * @param webhookId its {@code webhook-id} header: the message's id, the same on a redelivery
     * @param timestamp its {@code webhook-timestamp} header, Unix seconds, as sent
     * @param signature its {@code webhook-signature} header
     * @param body the body's bytes, as signed
     * @param receivedAt when the request reached the handler, before its body was read
     * @param jobId the body's {@code jobId}; null when absent or not a UUID
     * @param type the body's {@code type}, e.g. {@code job.completed}; null when absent
     * @param finishedAt the body's {@code finishedAt}; null when absent or not ISO-8601
     */
    public record Delivery(String webhookId, String timestamp, String signature, byte[] body, Instant receivedAt,
                           UUID jobId, String type, Instant finishedAt) {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();
    private final Set<UUID> jobs = ConcurrentHashMap.newKeySet();

    private NotifyEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** A receiver listening on {@code 127.0.0.1} at a free port, started. */
    public static NotifyEndpoint start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
            NotifyEndpoint receiver = new NotifyEndpoint(server, executor);
            server.createContext(PATH, receiver::handle);
            server.setExecutor(executor);
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for webhooks on 127.0.0.1: " + e.getMessage(), e);
        }
    }

    /** The URL a subscription sends to: {@code http://127.0.0.1:<port>/hook}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    private void handle(HttpExchange exchange) throws IOException {
        // the time of arrival first: reading and parsing the body is the bench's time, not the platform's
        Instant at = Instant.now();
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            var headers = exchange.getRequestHeaders();
            Delivery delivery = parse(headers.getFirst("webhook-id"), headers.getFirst("webhook-timestamp"),
                    headers.getFirst("webhook-signature"), body, at);
            deliveries.add(delivery);
            if (delivery.jobId() != null) {
                jobs.add(delivery.jobId());
            }
            exchange.sendResponseHeaders(204, -1);
        }
    }

    /** A delivery of these headers and body, with the fields of the body read where it has them. */
    static Delivery parse(String id, String timestamp, String signature, byte[] body, Instant receivedAt) {
        UUID jobId = null;
        String type = null;
        Instant finishedAt = null;
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null) {
                jobId = uuid(node.path("jobId").asText(null));
                type = node.path("type").asText(null);
                finishedAt = instant(node.path("finishedAt").asText(null));
            }
        } catch (IOException e) {
            // not JSON: kept as it came, and counted as a delivery for no job of the bench
        }
        return new Delivery(id, timestamp, signature, body, receivedAt, jobId, type, finishedAt);
    }

    /** Every delivery so far, in the order they were recorded. */
    public List<Delivery> deliveries() {
        return new ArrayList<>(deliveries);
    }

    /** Whether some delivery named job {@code id}. */
    public boolean received(UUID id) {
        return jobs.contains(id);
    }

    /** How many distinct jobs the deliveries so far named. */
    public int jobsReceived() {
        return jobs.size();
    }

    /** Stops listening; requests in flight get a second to end. */
    @Override
    public void close() {
        server.stop(1);
        executor.close();
    }
}
