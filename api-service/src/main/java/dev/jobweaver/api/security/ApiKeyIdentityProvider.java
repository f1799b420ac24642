package dev.jobweaver.api.security;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Authenticates {@link ApiKeyAuthenticationRequest}s through {@link ApiKeyAuthenticator}. Runs on the request's event
 * loop: the lookup is the reactive client's, and a cached key needs none.
 */
@ApplicationScoped
public class ApiKeyIdentityProvider implements IdentityProvider<ApiKeyAuthenticationRequest> {

    @Inject ApiKeyAuthenticator authenticator;

    @Override
    public Class<ApiKeyAuthenticationRequest> getRequestType() {
        return ApiKeyAuthenticationRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(ApiKeyAuthenticationRequest request,
                                              AuthenticationRequestContext context) {
        return authenticator.authenticate(request.key());
    }
}
