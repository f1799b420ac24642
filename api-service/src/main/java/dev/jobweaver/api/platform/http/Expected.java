package dev.jobweaver.api.platform.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a member of a {@link Body} must hold, in the words of the 400 for a value of the wrong type:
 * {@code maxRunning must be <value>, got a string}. Without it the message names the Java type's JSON kind
 * ("an integer", "a string", "an array").
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
public @interface Expected {

    String value();
}
