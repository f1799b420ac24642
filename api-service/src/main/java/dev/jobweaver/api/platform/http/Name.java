package dev.jobweaver.api.platform.http;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * A required name of 1 to {@link #max} characters, not blank, without NUL (which no PostgreSQL text column stores):
 * the name of a hook, a schedule, a workflow.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@Constraint(validatedBy = Name.Validator.class)
public @interface Name {

    int max();

    String message() default "is required (1 to {max} characters)";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<Name, String> {

        private int max;

        @Override
        public void initialize(Name constraint) {
            max = constraint.max();
        }

        @Override
        public boolean isValid(String name, ConstraintValidatorContext context) {
            if (name == null || name.isBlank()) {
                return false;
            }
            if (name.indexOf(0) >= 0) {
                return refuse(context, "must not contain the NUL character");
            }
            if (name.length() > max) {
                context.unwrap(HibernateConstraintValidatorContext.class).addMessageParameter("length", name.length());
                return refuse(context, "must be at most {max} characters, got {length}");
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
