package dev.jobweaver.worker.offsets;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The readiness and gauge checks of {@link OffsetCommitHealthCheckTest}, against the executable. */
@QuarkusIntegrationTest
class OffsetCommitHealthCheckIT extends OffsetCommitHealthCheckTest {
}
