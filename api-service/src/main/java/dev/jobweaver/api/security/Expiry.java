package dev.jobweaver.api.security;

import dev.jobweaver.api.platform.http.ClientText;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * An expiry: an ISO-8601 date-time with an offset, in the future and before the year 10000 (what the database keeps).
 * Null is valid: no expiry.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@Constraint(validatedBy = Expiry.Validator.class)
public @interface Expiry {

    String message() default "must be an ISO-8601 date-time with an offset such as 2030-01-01T00:00:00Z, got '{value}'";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<Expiry, String> {

        private static final Instant LAST = Instant.parse("9999-12-31T23:59:59Z");

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null) {
                return true;
            }
            HibernateConstraintValidatorContext hibernate = context.unwrap(HibernateConstraintValidatorContext.class);
            Instant expiresAt;
            try {
                expiresAt = OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeParseException e) {
                hibernate.addMessageParameter("value", ClientText.shown(value));
                return false;
            }
            if (!expiresAt.isAfter(Instant.now())) {
                hibernate.addMessageParameter("value", expiresAt.toString());
                return refuse(context, "must be in the future, got {value}");
            }
            if (expiresAt.isAfter(LAST)) {
                return refuse(context, "must be before the year 10000");
            }
            return true;
        }

        private static boolean refuse(ConstraintValidatorContext context, String template) {
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(template).addConstraintViolation();
            return false;
        }
    }
}
