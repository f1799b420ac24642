package dev.jobweaver.api.security;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The {@link Caller} of the request being served, read from its {@link SecurityIdentity} (authenticated by the time a
 * {@code @RolesAllowed} method runs). Call it on the request's own thread, before the first asynchronous step.
 */
@ApplicationScoped
public class Callers {

    /** The identity attribute that holds the caller's tenant (set by the API-key provider and {@link TenantAugmentor}). */
    public static final String TENANT = "jobweaver.tenant";

    @Inject SecurityIdentity identity;

    /** The caller of the current request. */
    public Caller current() {
        return of(identity);
    }

    /** The caller {@code identity} describes. */
    public static Caller of(SecurityIdentity identity) {
        String tenant = identity.getAttribute(TENANT);
        return new Caller(identity.getPrincipal() == null ? "anonymous" : identity.getPrincipal().getName(),
                tenant == null ? Caller.DEFAULT_TENANT : tenant, Roles.upTo(identity.getRoles()),
                identity.hasRole(Roles.ADMIN));
    }
}
