package dev.jobweaver.api.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/** Which methods are audited (lowest allowed role operator or admin, never @PermitAll) and their path templates. */
class AuditedEndpointsTest {

    private final AuditedEndpoints endpoints = new AuditedEndpoints();

    @Test
    void theLowestAllowedRoleDecides() throws Exception {
        assertThat(endpoints.audited(AuditProbeResource.class, method("poke"))).as("class-level admin")
                .contains("/api/audit-probe/tenants/{tenant}/things/{id}/poke");
        assertThat(endpoints.audited(AuditProbeResource.class, method("remove"))).as("operator or admin")
                .contains("/api/audit-probe/tenants/{tenant}/things/{id}");
        assertThat(endpoints.audited(AuditProbeResource.class, method("viewed"))).as("viewer").isEmpty();
        assertThat(endpoints.audited(AuditProbeResource.class, method("ping"))).as("public").isEmpty();
        Method list = AuditResource.class.getMethod("list", String.class, String.class, String.class, String.class,
                String.class, String.class, String.class);
        assertThat(endpoints.audited(AuditResource.class, list)).as("admin only (a GET, which the filter skips)")
                .contains("/api/audit");
    }

    @Test
    void aMethodWithoutRolesIsNotAudited() throws Exception {
        assertThat(AuditedEndpoints.isAudited(Object.class, Object.class.getMethod("toString"))).isFalse();
    }

    private static Method method(String name) {
        for (Method method : AuditProbeResource.class.getMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new AssertionError("no method " + name);
    }
}
