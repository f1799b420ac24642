package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.api.platform.http.Checked;
import dev.jobweaver.common.job.StepRules;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** The body of {@code POST /api/dead-letters/{jobId}/discard}. Unknown fields are ignored. */
@Body(rule = ApiErrorCode.INVALID_DEAD_LETTER_REQUEST, example = DiscardRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = DiscardRequest.EXAMPLE)
public record DiscardRequest(
        @Schema(required = true, minLength = 1, maxLength = MAX_REASON_LENGTH) @Checked(Reason.class) String reason) {

    /** The longest discard reason. */
    static final int MAX_REASON_LENGTH = 1000;
    static final String EXAMPLE = "{\"reason\":\"the input file is gone\"}";

    /** Why a dead letter is discarded: 1 to {@value #MAX_REASON_LENGTH} characters, not blank, no NUL. */
    @RegisterForReflection
    static final class Reason implements Checked.Rule<String> {

        @Override
        public String required() {
            return "is required (1 to " + MAX_REASON_LENGTH + " characters)";
        }

        @Override
        public boolean isValid(String reason, Checked constraint, HibernateConstraintValidatorContext context) {
            if (reason.isBlank()) {
                return refuse(context, "must not be blank");
            }
            if (reason.length() > MAX_REASON_LENGTH) {
                context.addMessageParameter("length", reason.length());
                return refuse(context, "must be at most " + MAX_REASON_LENGTH + " characters, got {length}");
            }
            return !StepRules.hasNul(reason) || refuse(context, "must not contain the NUL character (U+0000)");
        }
    }
}
