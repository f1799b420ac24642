package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.api.platform.http.JobTypeName;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.IsoInstant;
import dev.jobweaver.api.platform.http.TenantName;
import dev.jobweaver.common.job.JobType;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraints.Range;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The body of {@code POST /api/dead-letters/requeue}, which is optional: a filter whose every field is optional.
 * Unknown fields are ignored. The job type and the instants are strings so that a bad one is a broken rule, named with
 * this body's code.
 *
 * @param limit a {@link BigInteger} so that a number beyond any integer type is refused as out of range
 */
@Body(rule = ApiErrorCode.INVALID_DEAD_LETTER_REQUEST, example = BulkRequeueRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Checked(BulkRequeueRequest.Window.class)
@Schema(example = BulkRequeueRequest.EXAMPLE_SHOWN)
public record BulkRequeueRequest(
        @Schema(pattern = "[a-z0-9][a-z0-9-]{0,62}") @Checked(TenantName.class) String tenant,
        @Schema(pattern = JobType.PATTERN) @Checked(JobTypeName.class) String jobType,
        @Schema(type = SchemaType.STRING, format = "date-time", description = "failed after this instant")
        @Checked(IsoInstant.class) String failedAfter,
        @Schema(type = SchemaType.STRING, format = "date-time", description = "failed before this instant")
        @Checked(IsoInstant.class) String failedBefore,
        @Schema(minimum = "1", maximum = "" + MAX_LIMIT, defaultValue = "" + DEFAULT_LIMIT)
        @Range(min = 1, max = MAX_LIMIT, message = "must be between {min} and {max}, got ${validatedValue}")
        BigInteger limit) {

    /** How many dead letters a bulk requeue takes when the body names no limit. */
    static final int DEFAULT_LIMIT = 100;
    /** The most dead letters one bulk requeue takes. */
    static final int MAX_LIMIT = 1000;
    static final String EXAMPLE = "{\"tenant\":\"acme\",\"jobType\":\"HTTP\",\"limit\":100}";
    static final String EXAMPLE_SHOWN = "{\"tenant\":\"acme\",\"jobType\":\"HTTP\",\"failedAfter\":"
            + "\"2026-11-26T00:00:00Z\",\"failedBefore\":\"2026-11-27T00:00:00Z\",\"limit\":100}";

    /** The filter of a body that has none: every OPEN dead letter, up to the default limit. */
    static final BulkRequeueRequest ALL = new BulkRequeueRequest(null, null, null, null, null);

    /** The job type filter, null when absent; only once valid. */
    JobType type() {
        return jobType == null ? null : JobType.of(jobType);
    }

    /** The lower bound of the failure time, null when absent; only once valid. */
    Instant after() {
        return failedAfter == null ? null : Instant.parse(failedAfter);
    }

    /** The upper bound of the failure time, null when absent; only once valid. */
    Instant before() {
        return failedBefore == null ? null : Instant.parse(failedBefore);
    }

    /** How many dead letters to take at most; only once valid. */
    int max() {
        return limit == null ? DEFAULT_LIMIT : limit.intValueExact();
    }

    /** failedAfter before failedBefore when both are given (and instants: a bad one is its own member's rule). */
    @RegisterForReflection
    static final class Window implements Checked.Rule<BulkRequeueRequest> {

        @Override
        public boolean isValid(BulkRequeueRequest body, Checked constraint,
                               HibernateConstraintValidatorContext context) {
            Instant after;
            Instant before;
            try {
                after = body.after();
                before = body.before();
            } catch (DateTimeParseException e) {
                return true;
            }
            if (after == null || before == null || after.isBefore(before)) {
                return true;
            }
            context.addMessageParameter("after", after).addMessageParameter("before", before);
            return refuse(context, "failedAfter must be before failedBefore, got {after} and {before}");
        }
    }
}
