package dev.jobweaver.api.platform.http;

import dev.jobweaver.common.job.JobControlRules;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** A tenant's name as {@link JobControlRules#TENANT} defines it; null is valid. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
@Constraint(validatedBy = TenantName.Validator.class)
public @interface TenantName {

    String message() default "must match {pattern}, got '{value}'";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<TenantName, String> {

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            if (value == null || JobControlRules.TENANT.matcher(value).matches()) {
                return true;
            }
            // parameters, never part of the template: neither the pattern's braces nor the client's text interpolated
            context.unwrap(HibernateConstraintValidatorContext.class)
                    .addMessageParameter("pattern", JobControlRules.TENANT.pattern())
                    .addMessageParameter("value", ClientText.cut(value));
            return false;
        }
    }
}
