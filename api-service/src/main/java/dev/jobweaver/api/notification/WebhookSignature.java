package dev.jobweaver.api.notification;

import dev.jobweaver.api.security.crypto.RandomKeys;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Secrets and signatures as Standard Webhooks defines them: a secret is {@code whsec_} and the base64 of the key; a
 * delivery is signed {@code v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>")>}.
 */
public final class WebhookSignature {

    /** The prefix of a secret. */
    public static final String SECRET_PREFIX = "whsec_";

    private WebhookSignature() {
    }

    /** A new secret: {@code whsec_} and base64 of 32 random bytes (within the standard's 24 to 64). */
    public static String newSecret() {
        return SECRET_PREFIX + Base64.getEncoder().encodeToString(RandomKeys.next());
    }

    /** The {@code webhook-signature} header of {@code body} sent as {@code id} at {@code timestamp} (Unix seconds). */
    public static String sign(String secret, String id, long timestamp, String body) {
        if (!secret.startsWith(SECRET_PREFIX)) {
            throw new IllegalArgumentException("a webhook secret starts with " + SECRET_PREFIX);
        }
        byte[] key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] digest = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
