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
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** One of {@link Roles#ORDERED}, exactly as written there. Null is valid (the body's reader refuses a null role). */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE_USE, ElementType.FIELD, ElementType.PARAMETER})
@Constraint(validatedBy = KnownRole.Validator.class)
public @interface KnownRole {

    String message() default "is '{role}', not one of " + ApiKeyRequest.ROLES;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<KnownRole, String> {

        @Override
        public boolean isValid(String role, ConstraintValidatorContext context) {
            if (role == null || Roles.isKnown(role)) {
                return true;
            }
            // a parameter, not part of the template: the client's text is never interpolated
            context.unwrap(HibernateConstraintValidatorContext.class).addMessageParameter("role", ClientText.shown(role));
            return false;
        }
    }
}
