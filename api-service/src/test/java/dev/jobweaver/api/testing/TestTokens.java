package dev.jobweaver.api.testing;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Set;

/**
 * JWTs for the secured API's tests, signed with the test key pair in {@code src/test/resources/security}
 * ({@code jwt-public.pem} is the one {@code %test} verifies with; {@code other-private.pem} signs tokens that must be
 * refused).
 */
public final class TestTokens {

    /** The issuer {@code %test} accepts. */
    public static final String ISSUER = "https://jobweaver.test/issuer";
    /** The admin key {@link SecuredProfile} bootstraps. */
    public static final String BOOTSTRAP_ADMIN_KEY = "jw_test-bootstrap-admin-key-0123456789abcdefghij";

    private TestTokens() {
    }

    /** A valid token of {@code subject} in {@code tenant} with {@code roles}, for an hour. */
    public static String token(String subject, String tenant, String... roles) {
        return claims(subject, tenant, roles).sign(key("security/jwt-private.pem"));
    }

    /** The claims of {@link #token}, to change before signing. */
    public static JwtClaimsBuilder claims(String subject, String tenant, String... roles) {
        JwtClaimsBuilder claims = Jwt.issuer(ISSUER).upn(subject).subject(subject).groups(Set.of(roles))
                .issuedAt(Instant.now()).expiresIn(Duration.ofHours(1));
        if (tenant != null) {
            claims.claim("tenant", tenant);
        }
        return claims;
    }

    /** {@code Authorization} header value for {@code token}. */
    public static String bearer(String token) {
        return "Bearer " + token;
    }

    /** The private key in the test resource {@code resource} (PKCS#8 PEM). */
    public static PrivateKey key(String resource) {
        try (InputStream in = TestTokens.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + resource);
            }
            String pem = new String(in.readAllBytes(), StandardCharsets.US_ASCII)
                    .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
                    .decode(pem)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
