package dev.jobweaver.api.security;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** An API key's name: 1 to {@link #max} characters, not blank, no control character. Null is valid. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@Constraint(validatedBy = KeyName.Validator.class)
public @interface KeyName {

    int max();

    String message() default "must be 1 to {max} characters and not blank, got {length}";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<KeyName, String> {

        private int max;

        @Override
        public void initialize(KeyName constraint) {
            max = constraint.max();
        }

        @Override
        public boolean isValid(String name, ConstraintValidatorContext context) {
            if (name == null) {
                return true;
            }
            if (name.isBlank() || name.length() > max) {
                context.unwrap(HibernateConstraintValidatorContext.class).addMessageParameter("length", name.length());
                return false;
            }
            if (name.chars().anyMatch(Character::isISOControl)) {
                context.disableDefaultConstraintViolation();
                context.buildConstraintViolationWithTemplate("must not contain control characters")
                        .addConstraintViolation();
                return false;
            }
            return true;
        }
    }
}
