package dev.jobweaver.api.platform.http;

import dev.jobweaver.common.job.JobControlRules;
import io.quarkus.runtime.annotations.RegisterForReflection;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** The rule of a tenant's name as {@link JobControlRules#TENANT} defines it; absent is valid. */
@RegisterForReflection
public final class TenantName implements Checked.Rule<String> {

    @Override
    public boolean isValid(String value, Checked constraint, HibernateConstraintValidatorContext context) {
        if (JobControlRules.TENANT.matcher(value).matches()) {
            return true;
        }
        // parameters, never part of the template: neither the pattern's braces nor the client's text interpolated
        context.addMessageParameter("pattern", JobControlRules.TENANT.pattern())
                .addMessageParameter("value", ClientText.cut(value));
        return refuse(context, "must match {pattern}, got '{value}'");
    }
}
