package dev.jobweaver.api.platform.http;

import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of every error the API answers, the wire format of the original JobWeaver API.
 *
 * @param status the HTTP status, repeated for clients that only see the body
 * @param errorCode a namespaced code such as {@code API.JOB_NOT_FOUND}
 * @param message what is wrong, naming the field or parameter; never a stack trace
 * @param jobId the job concerned, when there is one (as given, even if it is not a valid UUID)
 */
@RegisterForReflection
// named, so that the OpenAPI document lists it among its components though no annotation names it (StandardAnswers)
@Schema(name = "ErrorResponse")
public record ErrorResponse(Instant timestamp, int status, String errorCode, String message, String jobId) {

    /** An error response for {@code code}, stamped now. */
    public static ErrorResponse of(ApiErrorCode code, String message, String jobId) {
        return new ErrorResponse(Instant.now(), code.httpStatus(), code.code(), message, jobId);
    }
}
