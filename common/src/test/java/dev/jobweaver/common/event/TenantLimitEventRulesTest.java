package dev.jobweaver.common.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The rules of a tenant's limit ({@code tenant-limits}): what the scheduler quarantines. */
class TenantLimitEventRulesTest {

    private static final Instant NOW = Instant.parse("2026-11-26T08:00:00Z");

    @Test
    void aLimitAndARemovedLimitPass() {
        assertThat(EventRules.problem(new TenantLimitEvent("acme", 1, 10, NOW))).isNull();
        assertThat(EventRules.problem(new TenantLimitEvent("acme", 2, null, NOW))).isNull();
        assertThat(EventRules.problem(new TenantLimitEvent("acme", 3, TenantLimitEvent.MAX_RUNNING, NOW))).isNull();
    }

    @Test
    void aLimitNamesWhatItLacksOrCarriesWrongly() {
        assertThat(EventRules.problem(new TenantLimitEvent(null, 1, 10, NOW))).isEqualTo("tenant is required");
        assertThat(EventRules.problem(new TenantLimitEvent("Acme!", 1, 10, NOW))).startsWith("tenant must match");
        assertThat(EventRules.problem(new TenantLimitEvent("acme", 0, 10, NOW))).startsWith("version");
        assertThat(EventRules.problem(new TenantLimitEvent("acme", 1, 0, NOW))).startsWith("maxRunning");
        assertThat(EventRules.problem(new TenantLimitEvent("acme", 1, TenantLimitEvent.MAX_RUNNING + 1, NOW)))
                .startsWith("maxRunning");
        assertThat(EventRules.problem(new TenantLimitEvent("acme", 1, 10, null))).isEqualTo("changedAt is required");
    }

    @Test
    void theKeyMustBeTheTenant() {
        assertThat(EventRules.tenantLimitKeyProblem("acme", "acme")).isNull();
        assertThat(EventRules.tenantLimitKeyProblem("other", "acme")).contains("must be its tenant acme");
        assertThat(EventRules.tenantLimitKeyProblem(null, "acme")).contains("has no key");
    }
}
