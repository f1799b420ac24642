package dev.jobweaver.api.security;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.List;

/**
 * One page of {@code GET /api/tenants/{tenant}/api-keys}, newest first, revoked keys included; never a key.
 *
 * @param page 0-based page number
 * @param totalElements the tenant's keys
 * @param totalPages pages of {@code size} needed for them
 */
@RegisterForReflection
public record ApiKeyPage(List<ApiKeyView> apiKeys, int page, int size, long totalElements, int totalPages) {
}
