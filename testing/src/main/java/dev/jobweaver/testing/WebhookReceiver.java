package dev.jobweaver.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook endpoint on 127.0.0.1 for the api's tests and the end-to-end tests: every path {@code /hooks/<name>} is one
 * subscriber, which verifies each delivery as Standard Webhooks say a receiver must (its own implementation, written
 * from the specification and sharing no code with the sender), records it, and answers as the test told it: 200, 500,
 * 500 a number of times then 200, slowly, or never.
 *
 * <p>Verification: {@code webhook-id}, {@code webhook-timestamp} and {@code webhook-signature} present; the timestamp
 * within 5 minutes of now; one of the signature's space-separated {@code v1,<base64>} entries equal (in constant time)
 * to HMAC-SHA256 over {@code "<id>.<timestamp>.<body>"} keyed with the base64-decoded part of the secret after
 * {@code whsec_}. A delivery that fails it is answered 401 and recorded as unverified.
 *
 * <p>A subscriber's secret is known only once its subscription is created, so a delivery can arrive before it: that
 * delivery is recorded as unverified ({@link #NO_SECRET}) and answered 401, or with the status given to
 * {@link #whileSecretUnknown(int)} (503 makes the sender retry it, for tests that subscribe while jobs already run).
 *
 * <p>Every arrival is recorded, so a test can also prove that nothing was sent ({@link #received()} empty).
 */
public final class WebhookReceiver implements AutoCloseable {

    /** How a subscriber answers. */
    public enum Behaviour {
        OK, FAIL, SLOW, NEVER
    }

    /** One delivery as received. */
    public record Received(String name, String webhookId, long timestamp, String body, String type, boolean verified,
                           String problem, Instant receivedAt) {

        /** The body as JSON. */
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("delivery " + webhookId + " to " + name + " is not JSON: " + body, e);
            }
        }
    }

    /** The problem of a delivery that arrived before its subscriber's secret was registered. */
    public static final String NO_SECRET = "no secret registered for this subscriber";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TYPE = Pattern.compile("\"type\"\\s*:\\s*\"([^\"]+)\"");
    private static final long TOLERANCE_SECONDS = 5 * 60;

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, String> secrets = new ConcurrentHashMap<>();
    private final Map<String, Behaviour> behaviours = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Duration slowness = Duration.ofSeconds(3);
    private volatile int whileSecretUnknown = 401;

    private WebhookReceiver(HttpServer server) {
        this.server = server;
    }

    /** A receiver listening on a free port of 127.0.0.1. */
    public static WebhookReceiver start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        WebhookReceiver receiver = new WebhookReceiver(server);
        server.createContext("/hooks/", receiver::handle);
        server.setExecutor(receiver.handlers);
        server.start();
        return receiver;
    }

    /** The URL of subscriber {@code name}. */
    public String url(String name) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/" + name;
    }

    /** The secret deliveries to {@code name} must be signed with (known once the subscription is created). */
    public void secret(String name, String secret) {
        if (!secret.startsWith("whsec_")) {
            throw new AssertionError("a Standard Webhooks secret starts with whsec_: " + secret.length() + " chars");
        }
        secrets.put(name, secret);
    }

    /** What a delivery to a subscriber whose secret is not registered yet is answered (401 unless told). */
    public WebhookReceiver whileSecretUnknown(int status) {
        this.whileSecretUnknown = status;
        return this;
    }

    /** How {@code name} answers from now on. */
    public void behave(String name, Behaviour behaviour) {
        behaviours.put(name, behaviour);
    }

    /** {@code name} answers 500 to its next {@code times} deliveries, then as its behaviour says. */
    public void failFirst(String name, int times) {
        failuresLeft.put(name, new AtomicInteger(times));
    }

    /** How long a SLOW subscriber takes to answer. */
    public void slowness(Duration duration) {
        this.slowness = duration;
    }

    /** Every delivery received so far, verified or not. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** The deliveries to {@code name} received so far. */
    public List<Received> receivedBy(String name) {
        return received.stream().filter(r -> r.name().equals(name)).toList();
    }

    /** How many deliveries to {@code name} carried {@code type} ({@code job.completed}), duplicates counted. */
    public long count(String name, String type) {
        return receivedBy(name).stream().filter(r -> type.equals(r.type())).count();
    }

    /** The deliveries that verified, in the order received. */
    public List<Received> accepted() {
        return received.stream().filter(Received::verified).toList();
    }

    /** Why each delivery to a subscriber with a registered secret did not verify. */
    public List<String> refused() {
        return received.stream().filter(r -> !r.verified() && !NO_SECRET.equals(r.problem()))
                .map(r -> r.name() + ": " + r.problem()).toList();
    }

    /** How many verified deliveries to {@code name} carried {@code type}, duplicates counted. */
    public long acceptedCount(String name, String type) {
        return receivedBy(name).stream().filter(r -> r.verified() && type.equals(r.type())).count();
    }

    /** How many times {@code webhookId} arrived, duplicates counted. */
    public long countId(String webhookId) {
        return received.stream().filter(r -> webhookId.equals(r.webhookId())).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String name = exchange.getRequestURI().getPath().substring("/hooks/".length());
            byte[] raw;
            try (InputStream in = exchange.getRequestBody()) {
                raw = in.readAllBytes();
            }
            String body = new String(raw, StandardCharsets.UTF_8);
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
            String signature = exchange.getRequestHeaders().getFirst("webhook-signature");
            String problem = verify(secrets.get(name), id, timestamp, signature, body);
            Matcher type = TYPE.matcher(body);
            long seconds = timestamp != null && timestamp.matches("\\d{1,12}") ? Long.parseLong(timestamp) : -1;
            received.add(new Received(name, id, seconds, body, type.find() ? type.group(1) : null, problem == null,
                    problem, Instant.now()));
            if (problem != null) {
                answer(exchange, NO_SECRET.equals(problem) ? whileSecretUnknown : 401);
                return;
            }
            AtomicInteger left = failuresLeft.get(name);
            if (left != null && left.getAndDecrement() > 0) {
                answer(exchange, 500);
                return;
            }
            switch (behaviours.getOrDefault(name, Behaviour.OK)) {
                case OK -> answer(exchange, 200);
                case FAIL -> answer(exchange, 500);
                case SLOW -> {
                    sleep(slowness);
                    answer(exchange, 200);
                }
                case NEVER -> {
                    // holds the connection without a byte of answer until the receiver closes
                    closing.await();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Why this delivery is not authentic, or null: the Standard Webhooks receiver's check. */
    public static String verify(String secret, String id, String timestamp, String signature, String body) {
        if (secret == null) {
            return NO_SECRET;
        }
        if (id == null || timestamp == null || signature == null) {
            return "a webhook header is missing";
        }
        long sent;
        try {
            sent = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return "webhook-timestamp is not a number";
        }
        if (Math.abs(Instant.now().getEpochSecond() - sent) > TOLERANCE_SECONDS) {
            return "webhook-timestamp is more than 5 minutes off";
        }
        byte[] expected;
        try {
            byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(key, "HmacSHA256"));
            expected = hmac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
            return "cannot compute the signature: " + e;
        }
        for (String entry : signature.split(" ")) {
            int comma = entry.indexOf(',');
            if (comma < 0 || !entry.substring(0, comma).equals("v1")) {
                continue;
            }
            byte[] given;
            try {
                given = Base64.getDecoder().decode(entry.substring(comma + 1));
            } catch (IllegalArgumentException e) {
                continue;
            }
            if (MessageDigest.isEqual(expected, given)) {
                return null;
            }
        }
        return "no v1 signature matches";
    }

    private static void answer(HttpExchange exchange, int status) throws IOException {
        exchange.sendResponseHeaders(status, -1);
    }

    private static void sleep(Duration duration) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(duration.toMillis());
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    /** The webhook-ids of {@code name}'s verified deliveries, in arrival order. */
    public List<String> verifiedIds(String name) {
        List<String> ids = new ArrayList<>();
        for (Received r : receivedBy(name)) {
            if (r.verified()) {
                ids.add(r.webhookId());
            }
        }
        return ids;
    }
}
