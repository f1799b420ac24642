package dev.jobweaver.api.platform.http;

import dev.jobweaver.common.job.StepRules;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Text without the NUL character, which no PostgreSQL text column stores; null is valid. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Constraint(validatedBy = NoNul.Validator.class)
public @interface NoNul {

    String message() default "must not contain the NUL character";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<NoNul, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            return value == null || !StepRules.hasNul(value);
        }
    }
}
