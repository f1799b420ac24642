package dev.jobweaver.e2e.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Before every test of the class, waits for {@link E2ePlatform#awaitHealthy()}: the scenarios share one platform, and
 * the one before may have left a service killed or restarting.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(HealthyPlatform.Await.class)
public @interface HealthyPlatform {

    /** The callback behind the annotation. */
    final class Await implements BeforeEachCallback {
        @Override
        public void beforeEach(ExtensionContext context) {
            E2ePlatform.awaitHealthy();
        }
    }
}
