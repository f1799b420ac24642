package dev.jobweaver.api.security.crypto;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Fresh key material for the secrets the API hands out (API keys, hook and webhook secrets) and the nonces that seal
 * them ({@link SecretCipher}), from one {@link SecureRandom}; safe on any thread.
 */
public final class RandomKeys {

    /** 32 random bytes: the size of SHA-256's and HMAC-SHA256's output, the strength a key of either can use. */
    public static final int BYTES = 32;

    /**
     * Made on first use, not when the class initialises: a native executable initialises this class while it is built,
     * and a generator made then would be frozen into the image with the same state in every process (GraalVM refuses
     * such an image). A holder class would not help, as it is initialised at build time too.
     */
    private static volatile SecureRandom random;

    private RandomKeys() {
    }

    /** {@value #BYTES} random bytes. */
    public static byte[] next() {
        byte[] key = new byte[BYTES];
        fill(key);
        return key;
    }

    /** Fills {@code bytes} with random bytes. */
    static void fill(byte[] bytes) {
        generator().nextBytes(bytes);
    }

    /** {@code prefix} and the unpadded base64url of {@value #BYTES} random bytes (43 characters). */
    public static String urlSafe(String prefix) {
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(next());
    }

    private static SecureRandom generator() {
        SecureRandom current = random;
        if (current == null) {
            synchronized (RandomKeys.class) {
                current = random;
                if (current == null) {
                    current = new SecureRandom();
                    random = current;
                }
            }
        }
        return current;
    }
}
