package dev.jobweaver.api.security.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.security.Roles;
import dev.jobweaver.api.web.rest.ApiException;
import dev.jobweaver.api.web.rest.JsonBody;
import dev.jobweaver.common.error.ApiErrorCode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Reads the body of {@code POST /api/tenants/{tenant}/api-keys}, or a 400 naming the field:
 * {@code API.MALFORMED_JSON} for a body that is not a JSON object or a value of the wrong type (as everywhere in the
 * API), {@code API.INVALID_API_KEY_REQUEST} for a broken rule. Unknown fields are refused too: a key's powers must not
 * depend on a misspelt field silently ignored.
 */
final class ApiKeyRequestReader {

    static final int MAX_NAME = 100;
    private static final String EXAMPLE = "{\"name\":\"ci\",\"roles\":[\"submitter\"],"
            + "\"expiresAt\":\"2030-01-01T00:00:00Z\"}";
    private static final Set<String> FIELDS = Set.of("name", "roles", "expiresAt");

    /** A valid request: the name, the roles (known ones, at least one), the expiry or null for none. */
    record Request(String name, Set<String> roles, Instant expiresAt) {
    }

    private final JsonBody json;

    ApiKeyRequestReader(ObjectMapper base) {
        this.json = new JsonBody(base);
    }

    Request read(byte[] body, Instant now) {
        JsonNode root = json.parse(body, EXAMPLE);
        if (root == null) {
            throw JsonBody.empty(EXAMPLE);
        }
        if (!root.isObject()) {
            throw JsonBody.malformed("request body must be a JSON object such as " + EXAMPLE);
        }
        JsonBody.checkFields(root, FIELDS, ApiErrorCode.INVALID_API_KEY_REQUEST,
                "an API key request has name, roles and expiresAt");
        return new Request(name(root.get("name")), roles(root.get("roles")), expiresAt(root.get("expiresAt"), now));
    }

    private static String name(JsonNode node) {
        if (node == null || node.isNull()) {
            throw invalid("name is required (1 to " + MAX_NAME + " characters)");
        }
        if (!node.isTextual()) {
            throw JsonBody.malformed("name must be a string");
        }
        String name = node.textValue();
        if (name.isBlank() || name.length() > MAX_NAME) {
            throw invalid("name must be 1 to " + MAX_NAME + " characters and not blank, got " + name.length());
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            throw invalid("name must not contain control characters");
        }
        return name;
    }

    private static Set<String> roles(JsonNode node) {
        if (node == null || node.isNull()) {
            throw invalid("roles is required: a non-empty array of " + Roles.ORDERED);
        }
        if (!node.isArray()) {
            throw JsonBody.malformed("roles must be an array of strings such as [\"submitter\"]");
        }
        if (node.isEmpty()) {
            throw invalid("roles must name at least one of " + Roles.ORDERED);
        }
        Set<String> roles = new LinkedHashSet<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode role = node.get(i);
            if (!role.isTextual()) {
                throw JsonBody.malformed("roles[" + i + "] must be a string");
            }
            if (!Roles.isKnown(role.textValue())) {
                throw invalid("roles[" + i + "] is '" + JsonBody.shown(role.textValue()) + "', not one of "
                        + Roles.ORDERED);
            }
            roles.add(role.textValue());
        }
        return roles;
    }

    private static Instant expiresAt(JsonNode node, Instant now) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw JsonBody.malformed("expiresAt must be an ISO-8601 date-time string such as 2030-01-01T00:00:00Z");
        }
        Instant expiresAt;
        try {
            expiresAt = OffsetDateTime.parse(node.textValue()).toInstant();
        } catch (DateTimeParseException e) {
            throw invalid("expiresAt must be an ISO-8601 date-time with an offset such as 2030-01-01T00:00:00Z, got '"
                    + JsonBody.shown(node.textValue()) + "'");
        }
        if (!expiresAt.isAfter(now)) {
            throw invalid("expiresAt must be in the future, got " + expiresAt);
        }
        if (expiresAt.isAfter(Instant.parse("9999-12-31T23:59:59Z"))) {
            throw invalid("expiresAt must be before the year 10000");
        }
        return expiresAt;
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.INVALID_API_KEY_REQUEST, message);
    }
}
