package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.RefusedException;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import java.util.Optional;
import java.util.Set;

/**
 * Who is calling: a name for the audit log, the tenant the caller belongs to, and its roles (with the lower ones they
 * imply). An admin, and every caller of an API run open, sees every tenant; anyone else sees its own only, and another
 * tenant's objects are answered as if they did not exist.
 *
 * @param name the API key's id and name, the JWT's {@code upn}/{@code sub}, or {@code anonymous}
 * @param tenant the caller's own tenant: where its submissions go when they name none
 * @param roles the roles granted and the lower ones they imply
 * @param allTenants whether the caller sees every tenant
 */
public record Caller(String name, String tenant, Set<String> roles, boolean allTenants) {

    /** The tenant a submission goes to when it names none and the caller has none of its own. */
    public static final String DEFAULT_TENANT = "default";

    /** Whether the caller may see objects of {@code tenant}. */
    public boolean sees(String tenant) {
        return allTenants || this.tenant.equals(tenant);
    }

    /** The tenant every query of this caller is limited to; empty when it sees every tenant. */
    public Optional<String> scope() {
        return allTenants ? Optional.empty() : Optional.of(tenant);
    }

    /**
     * The tenant of something the caller creates: {@code requested} when it names one the caller may use, else the
     * caller's own.
     *
     * @throws RefusedException {@code 403 API.TENANT_FORBIDDEN} when {@code requested} is another tenant's
     */
    public String tenantOf(String requested) {
        if (requested == null) {
            return tenant;
        }
        check(requested);
        return requested;
    }

    /**
     * The tenant a list is filtered by: {@code requested} when the caller may see it; the caller's own when it names
     * none and sees one tenant only; null (every tenant) for an admin that names none.
     *
     * @throws RefusedException {@code 403 API.TENANT_FORBIDDEN} when {@code requested} is another tenant's
     */
    public String filterTenant(String requested) {
        if (requested == null) {
            return allTenants ? null : tenant;
        }
        check(requested);
        return requested;
    }

    /** Whether the caller holds {@code role} (or a higher one). */
    public boolean has(String role) {
        return roles.contains(role);
    }

    /** The caller's highest role. */
    public String highestRole() {
        return Roles.highest(roles);
    }

    private void check(String requested) {
        if (!sees(requested)) {
            throw new RefusedException(ApiErrorCode.TENANT_FORBIDDEN,
                    "tenant '" + requested + "' is not the caller's; it may only name its own, '" + tenant + "'");
        }
    }
}
