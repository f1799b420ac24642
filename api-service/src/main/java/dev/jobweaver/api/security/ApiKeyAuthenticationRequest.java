package dev.jobweaver.api.security;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** An API key presented as {@code Authorization: Bearer jw_...}, for {@link ApiKeyIdentityProvider}. */
public class ApiKeyAuthenticationRequest extends BaseAuthenticationRequest {

    private final String key;

    public ApiKeyAuthenticationRequest(String key) {
        this.key = key;
    }

    /** The key as presented. */
    public String key() {
        return key;
    }

    @Override
    public String toString() {
        // the key never reaches a log line
        return "ApiKeyAuthenticationRequest";
    }
}
