package dev.jobweaver.api.security.crypto;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Fresh key material for the secrets the API hands out (API keys, hook and webhook secrets), from one
 * {@link SecureRandom}; safe on any thread.
 */
public final class RandomKeys {

    /** 32 random bytes: the size of SHA-256's and HMAC-SHA256's output, the strength a key of either can use. */
    public static final int BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private RandomKeys() {
    }

    /** {@value #BYTES} random bytes. */
    public static byte[] next() {
        byte[] key = new byte[BYTES];
        RANDOM.nextBytes(key);
        return key;
    }

    /** {@code prefix} and the unpadded base64url of {@value #BYTES} random bytes (43 characters). */
    public static String urlSafe(String prefix) {
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(next());
    }
}
