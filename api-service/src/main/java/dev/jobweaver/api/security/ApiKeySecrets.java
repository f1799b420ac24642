package dev.jobweaver.api.security;

import dev.jobweaver.api.security.crypto.RandomKeys;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * What an API key is made of: {@code jw_} and 43 base64url characters (32 random bytes, {@link RandomKeys}), stored as
 * its SHA-256 and recognised by a short prefix.
 *
 * <p>Why a plain SHA-256 and not a slow password hash (bcrypt, Argon2): those exist to make guessing a low-entropy
 * password from its hash expensive. A key is 256 random bits; no guessing of that succeeds, fast hash or not, and a
 * fast hash lets every request be checked in microseconds.
 */
final class ApiKeySecrets {

    /** What every key begins with: how the API tells a key from a JWT in {@code Authorization: Bearer}. */
    public static final String PREFIX = "jw_";
    /** Any key the API accepts: its own, and a bootstrap key chosen by an operator. */
    public static final Pattern FORMAT = Pattern.compile("jw_[A-Za-z0-9_-]{32,128}");
    /** Characters of a key shown in lists: {@code jw_} and 8 more, 48 of its 256 bits. */
    static final int SHOWN = PREFIX.length() + 8;

    private static final HexFormat HEX = HexFormat.of();

    private ApiKeySecrets() {
    }

    /** A new key. */
    public static String newKey() {
        return RandomKeys.urlSafe(PREFIX);
    }

    /** Whether {@code key} has the form of a key; says nothing of whether it is stored. */
    public static boolean wellFormed(String key) {
        return key != null && FORMAT.matcher(key).matches();
    }

    /** The stored form of {@code key}: its SHA-256 in lower-case hex. */
    public static String hash(String key) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /** The part of {@code key} a list shows, to recognise it by: not enough to use or guess it. */
    public static String prefix(String key) {
        return key.substring(0, Math.min(SHOWN, key.length()));
    }
}
