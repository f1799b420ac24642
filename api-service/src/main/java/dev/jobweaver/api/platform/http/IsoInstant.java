package dev.jobweaver.api.platform.http;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * An instant as {@link Instant#parse} reads it ({@code 2030-01-31T09:00:00Z}); null is valid. For a member read as a
 * string so that a bad instant is a broken rule (the body's code) rather than a value of the wrong type.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Constraint(validatedBy = IsoInstant.Validator.class)
public @interface IsoInstant {

    String message() default "must be an ISO-8601 instant such as 2030-01-31T09:00:00Z, got '{value}'";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<IsoInstant, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            try {
                Instant.parse(value);
                return true;
            } catch (DateTimeParseException e) {
                context.unwrap(HibernateConstraintValidatorContext.class).addMessageParameter("value",
                        ClientText.cut(value));
                return false;
            }
        }
    }
}
