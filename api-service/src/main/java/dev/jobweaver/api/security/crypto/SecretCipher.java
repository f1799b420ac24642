package dev.jobweaver.api.security.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals secrets for storage with AES-256-GCM: {@code v1:} and the base64 of a random 96-bit nonce followed by the
 * ciphertext and its 128-bit tag. The id of the row that owns the secret is the associated data, so a sealed value
 * copied into another row does not open there. A value without the {@code v1:} prefix is a plaintext written before
 * secrets were sealed, and opens as itself.
 *
 * <p>Thread-safe: a {@link Cipher} per call, the key immutable. Sealing a 50-character secret costs microseconds, so it
 * runs on the event loop.
 */
public final class SecretCipher {

    /** What a sealed value starts with: the format's version, so that a later format can be told apart. */
    public static final String V1 = "v1:";
    /** The key's length: AES-256. */
    public static final int KEY_BYTES = 32;

    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKey key;

    /** A cipher with {@code key}, which must be 32 bytes. */
    public SecretCipher(byte[] key) {
        if (key == null || key.length != KEY_BYTES) {
            throw new IllegalArgumentException("the key must be " + KEY_BYTES + " bytes, got "
                    + (key == null ? "none" : key.length));
        }
        this.key = new SecretKeySpec(key.clone(), "AES");
    }

    /** Whether {@code stored} is a sealed value (rather than a plaintext stored before sealing). */
    public static boolean isSealed(String stored) {
        return stored != null && stored.startsWith(V1);
    }

    /** {@code secret} sealed for the row {@code owner}. */
    public String seal(String secret, UUID owner) {
        byte[] nonce = new byte[NONCE_BYTES];
        RandomKeys.fill(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce, owner);
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[NONCE_BYTES + sealed.length];
            System.arraycopy(nonce, 0, out, 0, NONCE_BYTES);
            System.arraycopy(sealed, 0, out, NONCE_BYTES, sealed.length);
            return V1 + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is part of every JDK", e);
        }
    }

    /**
     * The secret {@code stored} holds for the row {@code owner}: opened when sealed, as it is when a legacy plaintext;
     * null for null.
     *
     * @throws UnreadableSecretException when a sealed value does not open: another key, another row, or altered
     */
    public String open(String stored, UUID owner) {
        if (stored == null || !isSealed(stored)) {
            return stored;
        }
        byte[] in;
        try {
            in = Base64.getDecoder().decode(stored.substring(V1.length()));
        } catch (IllegalArgumentException e) {
            throw new UnreadableSecretException(owner, "it is not base64");
        }
        if (in.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new UnreadableSecretException(owner, "it is too short");
        }
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(in, NONCE_BYTES), owner);
            byte[] plain = cipher.doFinal(in, NONCE_BYTES, in.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new UnreadableSecretException(owner,
                    "it was sealed with another key or for another row, or was altered");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM is part of every JDK", e);
        }
    }

    private Cipher cipher(int mode, byte[] nonce, UUID owner) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(ByteBuffer.allocate(16).putLong(owner.getMostSignificantBits())
                .putLong(owner.getLeastSignificantBits()).array());
        return cipher;
    }

    /** A sealed secret that does not open. The message names the row, never any of the value. */
    public static final class UnreadableSecretException extends RuntimeException {

        public UnreadableSecretException(UUID owner, String why) {
            super("the stored secret of " + owner + " cannot be opened with jobweaver.security.secret-key: " + why,
                    null, false, false);
        }
    }
}
