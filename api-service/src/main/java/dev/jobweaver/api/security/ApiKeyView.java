package dev.jobweaver.api.security;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An API key as the API shows it. {@code key} only in the answer to its creation, never again: only its hash is
 * stored.
 */
@RegisterForReflection
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "ApiKey")
public record ApiKeyView(
        UUID id,
        @Schema(example = "acme") String tenant,
        @Schema(example = "ci") String name,
        @Schema(description = "the roles granted; each implies the lower ones", example = "[\"submitter\"]")
        List<String> roles,
        @Schema(description = "the key's first characters, to recognise it by", example = "jw_Q2hvb3Nl") String prefix,
        Instant createdAt,
        @Schema(description = "absent: never expires") Instant expiresAt,
        @Schema(description = "set once the key is revoked") Instant revokedAt,
        @Schema(description = "when a replica last looked the key up in the database: its last use, to within the"
                + " key cache's period (5 s by default)") Instant lastUsedAt,
        @Schema(description = "the key, for Authorization: Bearer; shown once, in the answer to the creation")
        String key) {

    static ApiKeyView of(StoredApiKey stored) {
        return new ApiKeyView(stored.id(), stored.tenant(), stored.name(), stored.roles(), stored.prefix(),
                stored.createdAt(), stored.expiresAt(), stored.revokedAt(), stored.lastUsedAt(), null);
    }

    static ApiKeyView withKey(StoredApiKey stored, String key) {
        return new ApiKeyView(stored.id(), stored.tenant(), stored.name(), stored.roles(), stored.prefix(),
                stored.createdAt(), stored.expiresAt(), stored.revokedAt(), stored.lastUsedAt(), key);
    }

    @Override
    public String toString() {
        // the key never reaches a log line
        return "ApiKeyView[id=" + id + ", tenant=" + tenant + ", name=" + name + ", prefix=" + prefix + "]";
    }
}
