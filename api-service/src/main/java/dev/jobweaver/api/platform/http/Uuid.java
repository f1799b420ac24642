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

/** A UUID in its canonical form ({@link UuidText}); null is valid. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Constraint(validatedBy = Uuid.Validator.class)
public @interface Uuid {

    String message() default "must be a UUID such as " + UuidText.EXAMPLE + ", got '{value}'";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<Uuid, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null || UuidText.matches(value)) {
                return true;
            }
            // a parameter, never part of the template: the client's text is not interpolated
            context.unwrap(HibernateConstraintValidatorContext.class).addMessageParameter("value",
                    ClientText.cut(value, 60));
            return false;
        }
    }
}
