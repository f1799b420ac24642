package dev.jobweaver.api.security.crypto;

import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.util.Base64;
import java.util.UUID;

/**
 * The {@link SecretCipher} keyed with {@code jobweaver.security.secret-key}. Made at start, so that a missing or
 * malformed key stops the API before it serves anything, with a message naming the property.
 */
@Startup
@Singleton
public class SealedSecrets {

    private final SecretCipher cipher;

    public SealedSecrets(SecretKeyConfig config) {
        this.cipher = new SecretCipher(key(config));
    }

    /** {@code secret} sealed for the row {@code owner}. */
    public String seal(String secret, UUID owner) {
        return cipher.seal(secret, owner);
    }

    /**
     * The secret {@code stored} holds for the row {@code owner}; a legacy plaintext as it is.
     *
     * @throws SecretCipher.UnreadableSecretException when a sealed value does not open
     */
    public String open(String stored, UUID owner) {
        return cipher.open(stored, owner);
    }

    static byte[] key(SecretKeyConfig config) {
        String text = config.secretKey().map(String::strip).orElse("");
        if (text.isEmpty()) {
            throw new IllegalStateException(SecretKeyConfig.PROPERTY + " is not set: the API seals webhook secrets"
                    + " with it. Set it (environment JOBWEAVER_SECURITY_SECRET_KEY) to the base64 of 32 random bytes,"
                    + " e.g. the output of 'openssl rand -base64 32', and keep it: the stored secrets open only with"
                    + " it");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(SecretKeyConfig.PROPERTY + " is not base64; it must be the base64 of 32"
                    + " random bytes (openssl rand -base64 32)");
        }
        if (key.length != SecretCipher.KEY_BYTES) {
            throw new IllegalStateException(SecretKeyConfig.PROPERTY + " is " + key.length + " bytes once decoded;"
                    + " it must be the base64 of " + SecretCipher.KEY_BYTES + " random bytes (openssl rand -base64"
                    + " 32)");
        }
        return key;
    }
}
