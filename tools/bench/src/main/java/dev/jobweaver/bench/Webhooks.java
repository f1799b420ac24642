package dev.jobweaver.bench;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Standard Webhooks signature, as the notify workload's receiver checks it: {@code webhook-signature} holds
 * space-separated {@code v1,<base64 HMAC-SHA256>} entries over {@code webhook-id + "." + webhook-timestamp + "." +
 * body}, keyed with the base64-decoded part of the subscription's secret after {@code whsec_}. Written here rather
 * than taken from a library: the bench must tell a wrong signature from a right one on its own account.
 */
public final class Webhooks {

    /** The prefix of a subscription's secret. */
    static final String SECRET_PREFIX = "whsec_";

    /** The version tag of an HMAC-SHA256 signature. */
    static final String VERSION = "v1";

    private Webhooks() {
    }

    /** The HMAC key of {@code secret} ({@code whsec_<base64>}, the prefix optional); null when it is not base64. */
    public static byte[] key(String secret) {
        if (secret == null) {
            return null;
        }
        String encoded = secret.startsWith(SECRET_PREFIX) ? secret.substring(SECRET_PREFIX.length()) : secret;
        try {
            byte[] key = Base64.getDecoder().decode(encoded);
            return key.length == 0 ? null : key;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@code v1,<base64 HMAC-SHA256(key, id.timestamp.body)>}. */
    public static String sign(byte[] key, String id, String timestamp, byte[] body) {
        return VERSION + "," + Base64.getEncoder().encodeToString(mac(key, id, timestamp, body));
    }

    /**
     * Whether {@code header} (the {@code webhook-signature} value) holds a {@code v1} signature of this message under
     * {@code key}; entries of other versions are skipped. Compared in constant time.
     */
    public static boolean verify(byte[] key, String id, String timestamp, byte[] body, String header) {
        if (key == null || id == null || timestamp == null || body == null || header == null) {
            return false;
        }
        byte[] expected = mac(key, id, timestamp, body);
        for (String entry : header.trim().split("\\s+")) {
            int comma = entry.indexOf(',');
            if (comma < 0 || !entry.substring(0, comma).equals(VERSION)) {
                continue;
            }
            try {
                if (MessageDigest.isEqual(expected, Base64.getDecoder().decode(entry.substring(comma + 1)))) {
                    return true;
                }
            } catch (IllegalArgumentException e) {
                // not base64: not this signature
            }
        }
        return false;
    }

    private static byte[] mac(byte[] key, String id, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
