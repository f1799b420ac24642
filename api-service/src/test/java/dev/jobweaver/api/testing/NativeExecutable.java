package dev.jobweaver.api.testing;

import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The base of the native executable's suite ({@code *IT}, run by failsafe under {@code -Pnative}): the executable
 * started once, in the {@link NativeProfile} (secured as in production), on the real Kafka and PostgreSQL of
 * {@code @JobWeaverTest}. A subclass that calls as the admin adds {@code @ExtendWith(NativeProfile.AsAdmin.class)}.
 * Quarkus reads {@code @TestProfile} on the test class or a superclass, so the four settings live here once.
 */
@QuarkusIntegrationTest
@TestProfile(NativeProfile.class)
@JobWeaverTest(database = NativeProfile.DATABASE)
public abstract class NativeExecutable {
}
