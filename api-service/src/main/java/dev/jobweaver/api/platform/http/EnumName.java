package dev.jobweaver.api.platform.http;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/**
 * The name of a constant of {@link #value}, exactly as declared; null is valid. For a member read as a string so
 * that an unknown name is a broken rule (the body's code) rather than a value of the wrong type.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Constraint(validatedBy = EnumName.Validator.class)
public @interface EnumName {

    Class<? extends Enum<?>> value();

    String message() default "'{name}' is not a known value; valid values are {valid}";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<EnumName, String> {

        private String valid;
        private java.util.Set<String> names;

        @Override
        public void initialize(EnumName constraint) {
            Enum<?>[] constants = constraint.value().getEnumConstants();
            names = Arrays.stream(constants).map(Enum::name).collect(Collectors.toUnmodifiableSet());
            valid = Arrays.stream(constants).map(Enum::name).collect(Collectors.joining(", "));
        }

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null || names.contains(value)) {
                return true;
            }
            context.unwrap(HibernateConstraintValidatorContext.class)
                    .addMessageParameter("name", ClientText.cut(value, 60))
                    .addMessageParameter("valid", valid);
            return false;
        }
    }
}
