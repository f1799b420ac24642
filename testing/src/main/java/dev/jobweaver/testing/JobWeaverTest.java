package dev.jobweaver.testing;

import io.quarkus.test.common.QuarkusTestResource;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @QuarkusTest} class against the real Kafka and PostgreSQL of the launcher's shared
 * {@link dev.jobweaver.local.LocalStack}, with the service's own database: {@code @JobWeaverTest(database =
 * "jobweaver_api")}.
 *
 * <p>A {@code @QuarkusIntegrationTest} class takes it as it is: the stack then runs in the test JVM, and the
 * configuration {@link LocalStackResource#start()} returns reaches the packaged service (the native executable) as
 * system properties.
 *
 * <p>Why the application is not restarted between test classes: Quarkus compares the test resources of consecutive
 * classes and restarts when they differ. Every test class of a service names the same database, so each gets the same
 * resource (the {@link LocalStackResource} with this annotation's values, global scope) and one application serves the
 * whole suite, as long as no class brings a resource or profile of its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@QuarkusTestResource(LocalStackResource.class)
public @interface JobWeaverTest {

    /** The service's database on the shared PostgreSQL server, migrated as the service starts. */
    String database();
}
