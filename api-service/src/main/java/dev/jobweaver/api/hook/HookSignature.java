package dev.jobweaver.api.hook;

import dev.jobweaver.api.security.crypto.RandomKeys;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Secrets and signatures of inbound hooks: a call carries {@code X-JobWeaver-Timestamp} (Unix seconds) and
 * {@code X-JobWeaver-Signature: sha256=<lower-case hex HMAC-SHA256 of "<timestamp>.<raw body>">}, keyed with the
 * secret's UTF-8 bytes. The timestamp is signed as the header's text, byte for byte, and the body as its raw bytes, so
 * that neither depends on how anyone parses them.
 *
 * <p>Pure functions, safe on any thread (a {@link Mac} per call); an HMAC over the largest body the API takes costs
 * microseconds, so it runs on the event loop.
 */
public final class HookSignature {

    /** The header carrying the call's time, in Unix seconds. */
    public static final String TIMESTAMP_HEADER = "X-JobWeaver-Timestamp";
    /** The header carrying the call's signature. */
    public static final String SIGNATURE_HEADER = "X-JobWeaver-Signature";
    /** What a signature starts with: its algorithm. */
    public static final String PREFIX = "sha256=";
    /** What a secret starts with, so that one found in a file or a log names what it opens. */
    public static final String SECRET_PREFIX = "jwhook_";

    /** Unix seconds as decimal digits: 12 of them reach far beyond any clock that is within the window. */
    private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{1,12}");
    private static final Pattern SIGNATURE = Pattern.compile("sha256=[0-9a-f]{64}");
    private static final HexFormat HEX = HexFormat.of();

    private HookSignature() {
    }

    /** A new secret: {@value #SECRET_PREFIX} and the unpadded base64url of 32 random bytes (43 characters). */
    public static String newSecret() {
        return RandomKeys.urlSafe(SECRET_PREFIX);
    }

    /**
     * The time {@code header} names in Unix seconds, when it is decimal digits and at most {@code tolerance} away from
     * {@code now} either way; null otherwise (missing, malformed or out of the window: the caller answers
     * "timestamp" alike for each).
     */
    public static Long timestamp(String header, Instant now, Duration tolerance) {
        if (header == null || !TIMESTAMP.matcher(header).matches()) {
            return null;
        }
        long seconds = Long.parseLong(header);
        return Math.abs(now.getEpochSecond() - seconds) <= tolerance.toSeconds() ? seconds : null;
    }

    /** Whether {@code header} has a signature's form: {@value #PREFIX} and 64 lower-case hex digits. */
    public static boolean wellFormed(String header) {
        return header != null && SIGNATURE.matcher(header).matches();
    }

    /** The {@value #SIGNATURE_HEADER} value of {@code body} sent with the timestamp header {@code timestamp}. */
    public static String sign(String secret, String timestamp, byte[] body) {
        return PREFIX + HEX.formatHex(hmac(secret, timestamp, body));
    }

    /**
     * Whether {@code signature} (well-formed, see {@link #wellFormed}) is the signature of {@code body} with
     * {@code timestamp} under {@code secret}. Compared in constant time ({@link MessageDigest#isEqual}): how long the
     * comparison takes says nothing about how much of a forged signature was right.
     */
    public static boolean matches(String secret, String timestamp, byte[] body, String signature) {
        byte[] expected = sign(secret, timestamp, body).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] hmac(String secret, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(timestamp.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '.');
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
