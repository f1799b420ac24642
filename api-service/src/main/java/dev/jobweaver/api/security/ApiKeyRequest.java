package dev.jobweaver.api.security;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.Expected;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/tenants/{tenant}/api-keys}. Unknown fields are refused: a key's powers must not depend
 * on a misspelt field silently ignored.
 *
 * @param name      what the key is for, 1 to {@value #MAX_NAME} characters
 * @param roles     the roles it grants, at least one; each implies the lower ones
 * @param expiresAt when it stops working, ISO-8601 with an offset and in the future; null for never
 */
@Body(rule = ApiErrorCode.INVALID_API_KEY_REQUEST, example = ApiKeyRequest.EXAMPLE)
@Schema(example = ApiKeyRequest.EXAMPLE)
@RegisterForReflection
public record ApiKeyRequest(
        @Schema(required = true, minLength = 1, maxLength = MAX_NAME)
        @NotNull(message = "is required (1 to " + MAX_NAME + " characters)")
        @Checked(value = KeyName.class, max = MAX_NAME)
        String name,

        @Schema(required = true, minItems = 1, enumeration = {"viewer", "submitter", "operator", "admin"})
        @Expected("an array of strings such as [\"submitter\"]")
        @JsonSetter(contentNulls = Nulls.FAIL)
        @NotNull(message = "is required: a non-empty array of " + ROLES)
        @Size(min = 1, message = "must name at least one of " + ROLES)
        List<@Checked(KnownRole.class) String> roles,

        @Schema(format = "date-time", example = "2030-01-01T00:00:00Z")
        @Expected("an ISO-8601 date-time string such as 2030-01-01T00:00:00Z")
        @Checked(Expiry.class)
        String expiresAt) {

    static final int MAX_NAME = 100;
    static final String EXAMPLE = "{\"name\":\"ci\",\"roles\":[\"submitter\"],\"expiresAt\":\"2030-01-01T00:00:00Z\"}";
    /** {@code Roles.ORDERED} as a constant, for the messages (a test keeps the two equal). */
    static final String ROLES = "[viewer, submitter, operator, admin]";

    /** The roles without repeats, in the order given. */
    Set<String> roleSet() {
        return new LinkedHashSet<>(roles);
    }

    /** The expiry as an instant, null for none; valid once the record is. */
    Instant expiry() {
        return expiresAt == null ? null : OffsetDateTime.parse(expiresAt).toInstant();
    }
}
