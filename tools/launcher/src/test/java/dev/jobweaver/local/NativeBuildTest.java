package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.local.Platform.Service;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Maven command lines of build --native and test --native, and which executables they build. */
class NativeBuildTest {

    private static final Path ROOT = Path.of("/repo");
    private static final Path GRAAL = Path.of("/opt/graal");

    @Test
    void eachServiceIsBuiltWithTheNativeProfileAndTheBuilderItWasGiven() {
        assertThat(NativeBuild.buildCommand(ROOT, Service.WORKER, GRAAL, 8, false, List.of("-o"))).containsExactly(
                "/repo/mvnw", "-B", "-q", "package", "-Pnative", "-pl", "worker-service", "-am", "-DskipTests",
                "-Dquarkus.native.graalvm-home=/opt/graal", "-o");
    }

    @Test
    void onTwoCoresTheBuilderUsesOne() {
        assertThat(NativeBuild.buildCommand(ROOT, Service.API, GRAAL, 2, false, List.of()))
                .endsWith("-Dquarkus.native.additional-build-args=--parallelism=1,-J-XX:ActiveProcessorCount=1");
        assertThat(NativeBuild.buildCommand(ROOT, Service.API, GRAAL, 4, false, List.of()))
                .noneMatch(arg -> arg.contains("parallelism"));
    }

    @Test
    void aQuickBuildAppendsTheBuildersQuickModeAfterEveryOtherLevel() {
        assertThat(NativeBuild.buildCommand(ROOT, Service.WORKER, GRAAL, 2, true, List.of())).containsSubsequence(
                "-Dquarkus.native.additional-build-args=--parallelism=1,-J-XX:ActiveProcessorCount=1",
                "-Dquarkus.native.additional-build-args-append=-Ob");
        assertThat(NativeBuild.buildCommand(ROOT, Service.API, GRAAL, 4, true, List.of()))
                .endsWith("-Dquarkus.native.additional-build-args-append=-Ob");
        assertThat(NativeBuild.buildCommand(ROOT, Service.API, GRAAL, 4, false, List.of()))
                .noneMatch(arg -> arg.startsWith("-Dquarkus.native.additional-build-args"));
    }

    @Test
    void theNativeLaneVerifiesTheServicesAndTheE2eModuleAgainstTheExecutablesWithoutUnitTests() {
        assertThat(NativeBuild.testCommand(ROOT, GRAAL, List.of("-o"))).containsExactly("/repo/mvnw", "-B", "verify",
                "-Pnative", "-pl", "api-service,scheduler-service,worker-service,src/test-e2e", "-am", "-Dtest=NONE",
                "-Dsurefire.failIfNoSpecifiedTests=false", "-Dquarkus.native.reuse-existing=true",
                "-Dquarkus.native.graalvm-home=/opt/graal", "-o");
    }

    @Test
    void onlyMissingExecutablesAreBuiltWhenAsked(@TempDir Path root) throws Exception {
        Path worker = Service.WORKER.executable(root);
        Files.createDirectories(worker.getParent());
        Files.writeString(worker, "");
        assertThat(NativeBuild.toBuild(root, true)).containsExactly(Service.API, Service.SCHEDULER);
        assertThat(NativeBuild.toBuild(root, false)).containsExactly(Service.values());
        assertThat(worker).hasFileName("jobweaver-worker-service-1.0.0-SNAPSHOT-runner");
    }

    @Test
    void anExecutableOlderThanItsServicesOrCommonsSourcesIsBuiltAgain(@TempDir Path root) throws Exception {
        Path source = root.resolve("worker-service/src/main/java/Run.java");
        Path shared = root.resolve("common/src/main/java/Event.java");
        Path other = root.resolve("api-service/src/main/java/Job.java");
        aWorkerBuiltAfter(root, source, shared, other);
        assertThat(NativeBuild.isOutOfDate(root, Service.WORKER)).isFalse();

        Files.setLastModifiedTime(other, FileTime.fromMillis(3_000_000));
        assertThat(NativeBuild.isOutOfDate(root, Service.WORKER)).as("another service's source").isFalse();

        Files.setLastModifiedTime(shared, FileTime.fromMillis(3_000_000));
        assertThat(NativeBuild.isOutOfDate(root, Service.WORKER)).as("common's source").isTrue();

        Files.setLastModifiedTime(shared, FileTime.fromMillis(1_000_000));
        Files.setLastModifiedTime(source, FileTime.fromMillis(3_000_000));
        assertThat(NativeBuild.isOutOfDate(root, Service.WORKER)).as("its own source").isTrue();
    }

    @Test
    void theWorkersExecutableIsBuiltAgainWhenTheWorkerRuntimeOrTheSdkChanges(@TempDir Path root) throws Exception {
        Path runtime = root.resolve("worker-runtime/src/main/java/Runner.java");
        Path sdk = root.resolve("worker-sdk/src/main/java/Handler.java");
        aWorkerBuiltAfter(root, runtime, sdk);
        assertThat(NativeBuild.isOutOfDate(root, Service.WORKER)).isFalse();

        Files.setLastModifiedTime(sdk, FileTime.fromMillis(3_000_000));
        assertThat(NativeBuild.isOutOfDate(root, Service.WORKER)).as("the SDK's source").isTrue();

        Files.setLastModifiedTime(sdk, FileTime.fromMillis(1_000_000));
        Files.setLastModifiedTime(runtime, FileTime.fromMillis(3_000_000));
        assertThat(NativeBuild.isOutOfDate(root, Service.WORKER)).as("the runtime's source").isTrue();
    }

    /** {@code sources} written at time 1,000,000 ms and the worker's executable after them, at 2,000,000 ms. */
    private static void aWorkerBuiltAfter(Path root, Path... sources) throws Exception {
        for (Path file : sources) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, "class X {}");
            Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000));
        }
        Path worker = Service.WORKER.executable(root);
        Files.createDirectories(worker.getParent());
        Files.writeString(worker, "");
        Files.setLastModifiedTime(worker, FileTime.fromMillis(2_000_000));
    }

    @Test
    void buildTimesReadAsMinutesAndSeconds() {
        assertThat(NativeBuild.minutes(365)).isEqualTo("6m05s");
        assertThat(NativeBuild.size(Path.of("/nonexistent"))).isEqualTo("missing");
    }
}
