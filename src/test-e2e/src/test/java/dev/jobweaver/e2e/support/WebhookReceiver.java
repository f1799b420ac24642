package dev.jobweaver.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A webhook endpoint on 127.0.0.1 that checks every delivery as the Standard Webhooks specification says a receiver
 * must: the signature {@code v1,base64(HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>"))}, the key being
 * the base64 after {@code whsec_} of the endpoint's secret, and a timestamp within five minutes of now. Written from
 * the specification, independently of the platform's sender.
 *
 * <p>Each subscription gets its own path ({@code /hooks/<name>}), registered with its secret. A delivery that does
 * not verify is answered 401 and recorded as refused; one for a path whose secret is not registered yet is answered
 * 503, which the sender retries.
 */
public final class WebhookReceiver implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long TOLERANCE_SECONDS = 300;

    /** One accepted delivery. */
    public record Delivery(String path, String webhookId, String type, JsonNode body, long receivedAtMillis) {
    }

    private final HttpServer server;
    private final Map<String, byte[]> keys = new ConcurrentHashMap<>();
    private final List<Delivery> accepted = new CopyOnWriteArrayList<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();

    public WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hooks/", this::handle);
        server.start();
    }

    /** The URL of the endpoint {@code name}. */
    public String url(String name) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/" + name;
    }

    /** Registers the secret ({@code whsec_...}) of the endpoint {@code name}. */
    public void secret(String name, String secret) {
        if (!secret.startsWith("whsec_")) {
            throw new AssertionError("a Standard Webhooks secret starts with whsec_: " + secret.length() + " chars");
        }
        keys.put("/hooks/" + name, Base64.getDecoder().decode(secret.substring("whsec_".length())));
    }

    /** Every delivery that verified, in the order received. */
    public List<Delivery> accepted() {
        return List.copyOf(accepted);
    }

    /** Why each refused delivery was refused. */
    public List<String> refused() {
        return List.copyOf(refused);
    }

    /** Deliveries of endpoint {@code name} with type {@code type} (such as {@code job.completed}). */
    public long count(String name, String type) {
        return accepted.stream().filter(d -> d.path().equals("/hooks/" + name) && d.type().equals(type)).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readAllBytes();
            String path = exchange.getRequestURI().getPath();
            byte[] key = keys.get(path);
            if (key == null) {
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            String problem = problem(exchange, body, key);
            if (problem != null) {
                refused.add(path + ": " + problem);
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            JsonNode json = JSON.readTree(body);
            accepted.add(new Delivery(path, exchange.getRequestHeaders().getFirst("webhook-id"),
                    json.path("type").asText(), json, System.currentTimeMillis()));
            exchange.sendResponseHeaders(204, -1);
        }
    }

    private static String problem(HttpExchange exchange, byte[] body, byte[] key) {
        String id = exchange.getRequestHeaders().getFirst("webhook-id");
        String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
        String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
        if (id == null || timestamp == null || signatures == null) {
            return "missing webhook-id, webhook-timestamp or webhook-signature";
        }
        long sentAt;
        try {
            sentAt = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return "webhook-timestamp is not Unix seconds: " + timestamp;
        }
        if (Math.abs(System.currentTimeMillis() / 1000 - sentAt) > TOLERANCE_SECONDS) {
            return "webhook-timestamp " + timestamp + " is more than 5 minutes off";
        }
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            expected = mac.doFinal(body);
        } catch (Exception e) {
            return "HMAC failed: " + e;
        }
        // The header may carry several space-separated signatures (secret rotation): one valid v1 is enough.
        for (String signature : signatures.split(" ")) {
            int comma = signature.indexOf(',');
            if (comma > 0 && signature.substring(0, comma).equals("v1")) {
                byte[] given;
                try {
                    given = Base64.getDecoder().decode(signature.substring(comma + 1));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (MessageDigest.isEqual(expected, given)) {
                    return null;
                }
            }
        }
        return "no valid v1 signature in '" + signatures + "'";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
