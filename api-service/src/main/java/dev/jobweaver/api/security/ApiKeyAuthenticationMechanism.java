package dev.jobweaver.api.security;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Takes {@code Authorization: Bearer jw_...} as an API key. It runs before smallrye-jwt's mechanism (a higher
 * priority), so a key never reaches the JWT parser; any other bearer token it leaves alone (no identity), and the JWT
 * mechanism verifies it.
 */
@ApplicationScoped
public class ApiKeyAuthenticationMechanism implements HttpAuthenticationMechanism {

    private static final String BEARER = "Bearer ";
    private static final String CHALLENGE = "Bearer realm=\"jobweaver\"";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String key = keyOf(context.request().getHeader(HttpHeaderNames.AUTHORIZATION));
        if (key == null) {
            return Uni.createFrom().nullItem();
        }
        return identityProviderManager.authenticate(HttpSecurityUtils.setRoutingContextAttribute(
                new ApiKeyAuthenticationRequest(key), context));
    }

    /** The API key in an {@code Authorization} header's value, or null when it holds none. */
    static String keyOf(String authorization) {
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String token = authorization.substring(BEARER.length()).trim();
        return token.startsWith(ApiKeySecrets.PREFIX) ? token : null;
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(HttpResponseStatus.UNAUTHORIZED.code(),
                HttpHeaderNames.WWW_AUTHENTICATE, CHALLENGE));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(ApiKeyAuthenticationRequest.class);
    }

    @Override
    public int getPriority() {
        // smallrye-jwt's mechanism has DEFAULT_PRIORITY; higher runs first
        return DEFAULT_PRIORITY + 100;
    }
}
