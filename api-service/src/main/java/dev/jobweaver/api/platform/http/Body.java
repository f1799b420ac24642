package dev.jobweaver.api.platform.http;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record as a request body bound by Jackson ({@link StrictJson}) and checked by Bean Validation, and says how
 * its refusals read: a broken rule is answered with {@link #rule}, a body that is empty or no JSON object names
 * {@link #example}. A value of the wrong type or a body that is not JSON is {@code API.MALFORMED_JSON} whatever the
 * body ({@link BodyErrors}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Body {

    /** The code of a broken rule: a constraint, an unknown field where the record refuses them. */
    ApiErrorCode rule();

    /** A body the endpoint takes, shown when the body is empty or no JSON object. */
    String example();

    /**
     * Whether a value of the wrong type is named by itself ({@code tenant must be a string, got the number 7}) rather
     * than by its kind ({@code got an integer}): the wording of the job body, kept from the original API.
     */
    boolean showsValue() default false;
}
