package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The {@code Idempotency-Key} header of {@code POST /api/jobs}: its rule, and the fingerprint of a request body that
 * tells a repeat of the first request (same fingerprint) from another request under the same key.
 */
final class IdempotencyKeys {

    /** The header's name. */
    static final String HEADER = "Idempotency-Key";
    /** The longest key. */
    static final int MAX_LENGTH = 255;

    private IdempotencyKeys() {
    }

    /** What is wrong with {@code key}, or null: 1 to 255 printable ASCII characters (space to tilde). */
    static String problem(String key) {
        if (key.isEmpty() || key.length() > MAX_LENGTH) {
            return "header " + HEADER + " must be 1 to " + MAX_LENGTH + " printable ASCII characters, got "
                    + key.length();
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return "header " + HEADER + " must be 1 to " + MAX_LENGTH + " printable ASCII characters; character "
                        + (i + 1) + " is U+" + String.format("%04X", (int) c);
            }
        }
        return null;
    }

    /**
     * SHA-256 (hex) of {@code body} in a canonical form: its JSON with object members sorted by name and no white space,
     * so that a client repeating its request with another formatting or member order is still the same request.
     * {@code body} is JSON already read without error.
     */
    static String fingerprint(ObjectMapper mapper, byte[] body) {
        try {
            StringBuilder canonical = new StringBuilder(body.length);
            write(mapper, mapper.readTree(body), canonical);
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(canonical.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("could not fingerprint a request body", e);
        }
    }

    private static void write(ObjectMapper mapper, JsonNode node, StringBuilder out) throws IOException {
        if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.properties());
            members.sort(Map.Entry.comparingByKey());
            out.append('{');
            for (int i = 0; i < members.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(mapper.writeValueAsString(members.get(i).getKey())).append(':');
                write(mapper, members.get(i).getValue(), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(mapper, node.get(i), out);
            }
            out.append(']');
        } else {
            out.append(mapper.writeValueAsString(node));
        }
    }
}
