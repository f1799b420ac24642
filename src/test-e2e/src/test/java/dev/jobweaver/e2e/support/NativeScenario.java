package dev.jobweaver.e2e.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A scenario of the native lane: under Maven's {@code native} profile the e2e module runs only these (failsafe's
 * {@code groups}), against the services' native executables ({@link E2ePlatform#NATIVE}). They cover what matters
 * most in a few minutes: success, retries to the dead letter, a worker crash with no job lost, a schedule tick, a
 * workflow run, an HTTP job and secured access.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(NativeScenario.TAG)
public @interface NativeScenario {

    /** The JUnit tag, which the e2e module's {@code native} profile selects. */
    String TAG = "native";
}
