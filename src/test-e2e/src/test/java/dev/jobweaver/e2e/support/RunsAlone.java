package dev.jobweaver.e2e.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A scenario that needs the machine to itself: it starts a platform of its own from cold and holds that start to
 * bounds (no event loop blocked, a first job within seconds), which on two cores hold only when nothing else runs.
 * {@code ./jobweaver test} runs the other scenarios beside the modules' suites and these after both, alone (failsafe's
 * {@code excludedGroups}, then {@code groups}); a plain {@code ./mvnw verify} runs them with the rest.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(RunsAlone.TAG)
public @interface RunsAlone {

    /** The JUnit tag that {@code ./jobweaver test} excludes from its concurrent lanes and runs on its own. */
    String TAG = "alone";
}
