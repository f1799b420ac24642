package dev.jobweaver.api.deadletter;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.jobweaver.api.platform.http.Body;
import dev.jobweaver.api.platform.http.ApiErrorCode;
import dev.jobweaver.common.job.StepRules;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** The body of {@code POST /api/dead-letters/{jobId}/discard}. Unknown fields are ignored. */
@Body(rule = ApiErrorCode.INVALID_DEAD_LETTER_REQUEST, example = DiscardRequest.EXAMPLE)
@JsonIgnoreProperties(ignoreUnknown = true)
@Schema(example = DiscardRequest.EXAMPLE)
public record DiscardRequest(
        @Schema(required = true, minLength = 1, maxLength = MAX_REASON_LENGTH) @Reason String reason) {

    /** The longest discard reason. */
    static final int MAX_REASON_LENGTH = 1000;
    static final String EXAMPLE = "{\"reason\":\"the input file is gone\"}";

    /** Why a dead letter is discarded: 1 to {@value #MAX_REASON_LENGTH} characters, not blank, no NUL. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
    @Constraint(validatedBy = Reason.Validator.class)
    @interface Reason {

        String message() default "is required (1 to " + MAX_REASON_LENGTH + " characters)";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        final class Validator implements ConstraintValidator<Reason, String> {

            @Override
            public boolean isValid(String reason, ConstraintValidatorContext context) {
                if (reason == null) {
                    return false;
                }
                String broken = null;
                if (reason.isBlank()) {
                    broken = "must not be blank";
                } else if (reason.length() > MAX_REASON_LENGTH) {
                    context.unwrap(HibernateConstraintValidatorContext.class)
                            .addMessageParameter("length", reason.length());
                    broken = "must be at most " + MAX_REASON_LENGTH + " characters, got {length}";
                } else if (StepRules.hasNul(reason)) {
                    broken = "must not contain the NUL character (U+0000)";
                }
                if (broken == null) {
                    return true;
                }
                context.disableDefaultConstraintViolation();
                context.buildConstraintViolationWithTemplate(broken).addConstraintViolation();
                return false;
            }
        }
    }
}
