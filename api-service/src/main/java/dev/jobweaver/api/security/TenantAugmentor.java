package dev.jobweaver.api.security;

import dev.jobweaver.common.job.JobControlRules;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Completes every identity the same way, whichever mechanism made it: the roles its highest role implies, and its
 * tenant (a JWT's tenant claim; an API key's provider sets it itself). With security off an anonymous caller becomes
 * an admin of every tenant, so one set of {@code @RolesAllowed} rules serves both modes. Runs on the thread that
 * authenticated (an event loop, or a worker after the API-key lookup); it blocks nothing.
 */
@ApplicationScoped
public class TenantAugmentor implements SecurityIdentityAugmentor {

    @Inject SecurityConfig config;

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous()) {
            if (config.enabled()) {
                return Uni.createFrom().item(identity);
            }
            return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                    .setPrincipal(new QuarkusPrincipal("anonymous"))
                    .addRoles(Roles.upTo(Roles.ORDERED))
                    .addAttribute(Callers.TENANT, Caller.DEFAULT_TENANT)
                    .build());
        }
        QuarkusSecurityIdentity.Builder builder = QuarkusSecurityIdentity.builder(identity)
                .addRoles(Roles.upTo(identity.getRoles()));
        if (identity.getAttribute(Callers.TENANT) == null) {
            builder.addAttribute(Callers.TENANT, tenantOf(identity));
        }
        return Uni.createFrom().item(builder.build());
    }

    private String tenantOf(SecurityIdentity identity) {
        if (!(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Caller.DEFAULT_TENANT;
        }
        Object claim = token.getClaim(config.tenantClaim());
        if (claim == null) {
            return Caller.DEFAULT_TENANT;
        }
        String tenant = claim.toString();
        if (tenant.startsWith("\"") && tenant.endsWith("\"") && tenant.length() >= 2) {
            tenant = tenant.substring(1, tenant.length() - 1);
        }
        if (!JobControlRules.TENANT.matcher(tenant).matches()) {
            throw new AuthenticationFailedException("the token's tenant claim is not a tenant name");
        }
        return tenant;
    }
}
