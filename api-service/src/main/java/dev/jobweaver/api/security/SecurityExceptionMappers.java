package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.ApiExceptionMappers;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * 401 and 403 in the API's error format. Authentication is lazy ({@code quarkus.http.auth.proactive=false}), so it
 * fails inside the REST layer, where these mappers see it. The messages never repeat the credential, nor say which
 * check it failed: a prober learns nothing from them.
 */
public class SecurityExceptionMappers {

    private static final String CHALLENGE = "Bearer realm=\"jobweaver\"";

    @ServerExceptionMapper
    public Response unauthorized(UnauthorizedException e) {
        return ApiExceptionMappers.builder(ApiErrorCode.UNAUTHENTICATED,
                "credentials required: Authorization: Bearer <API key or JWT>", null)
                .header(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE).build();
    }

    @ServerExceptionMapper
    public Response failed(AuthenticationFailedException e) {
        return ApiExceptionMappers.builder(ApiErrorCode.UNAUTHENTICATED,
                "the credentials are not valid (unknown, revoked or expired key, or a token that failed verification)",
                null).header(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE + ", error=\"invalid_token\"").build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return ApiExceptionMappers.builder(ApiErrorCode.FORBIDDEN, "the caller's role does not allow this action",
                null).build();
    }
}
