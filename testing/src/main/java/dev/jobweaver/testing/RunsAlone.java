package dev.jobweaver.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class that needs the machine to itself: it holds a start or a timer to bounds in milliseconds or seconds (a
 * platform's cold start with no event loop blocked, a delayed job dispatched within 500 ms of its time), which on two
 * cores hold only when nothing else runs. {@code ./jobweaver test} runs the other end-to-end scenarios beside the
 * modules' suites (the latter at a lower priority) and these after both, alone (Surefire's and Failsafe's
 * {@code excludedGroups}, then {@code groups}); a plain {@code ./mvnw verify} runs them with the rest.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(RunsAlone.TAG)
public @interface RunsAlone {

    /** The JUnit tag that {@code ./jobweaver test} excludes from its concurrent lanes and runs on its own. */
    String TAG = "alone";
}
