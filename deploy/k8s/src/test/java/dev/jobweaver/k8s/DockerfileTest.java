package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The services' Dockerfiles (src/main/docker): pinned bases, non-root users, the fast-jar layout for the JVM image,
 * a Mandrel (Java 25) build with the native profile for the native ones, whose runtime stage holds the executable
 * alone (UBI 9 minimal for Dockerfile.native, Quarkus's UBI 9 micro image for Dockerfile.native-micro, which prod
 * runs), and the ports the manifests expect. They cannot be built here (no Docker engine), so what is checked is what
 * they say.
 */
class DockerfileTest {

    private static final Pattern FROM = Pattern.compile("^FROM\\s+(\\S+)(?:\\s+AS\\s+(\\S+))?", Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern USER = Pattern.compile("^USER\\s+(\\S+)", Pattern.MULTILINE);
    private static final Pattern EXPOSE = Pattern.compile("^EXPOSE\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern COPY = Pattern.compile("^COPY\\s+(.+)$", Pattern.MULTILINE);

    @ParameterizedTest
    @ValueSource(strings = {"api-service", "scheduler-service", "worker-service"})
    void jvmImageRunsTheFastJarAsANonRootUserOnAJava25Runtime(String service) throws IOException {
        String dockerfile = read(service, "Dockerfile.jvm");
        List<String> bases = bases(dockerfile);
        assertThat(bases).singleElement().satisfies(base -> {
            assertThat(ImagePinningTest.isPinned(base)).as("base %s pinned", base).isTrue();
            assertThat(base).contains("openjdk-25");
        });
        for (String part : List.of("lib/", "*.jar", "app/", "quarkus/")) {
            assertThat(dockerfile).contains(service + "/target/quarkus-app/" + part);
        }
        assertThat(dockerfile).contains("quarkus-run.jar");
        assertNonRootUser(dockerfile);
        assertExposes(dockerfile, service);
    }

    @ParameterizedTest
    @ValueSource(strings = {"api-service", "scheduler-service", "worker-service"})
    void nativeImageIsBuiltWithMandrelForJava25AndRunsNonRootOnUbiMinimal(String service) throws IOException {
        assertNativeBuildRunsTheExecutableAloneOn(service, "Dockerfile.native", "registry.access.redhat.com/ubi9/ubi-minimal:");
    }

    /**
     * The images prod runs: the UBI 9 micro variant, because the Mandrel builder is UBI 9 and its executables need
     * that glibc (the UBI 8 based quarkus-micro-image has an older one).
     */
    @ParameterizedTest
    @ValueSource(strings = {"api-service", "scheduler-service", "worker-service"})
    void microImageIsBuiltWithMandrelForJava25AndRunsNonRootOnQuarkusUbi9Micro(String service) throws IOException {
        assertNativeBuildRunsTheExecutableAloneOn(service, "Dockerfile.native-micro", "quay.io/quarkus/ubi9-quarkus-micro-image:");
    }

    @Test
    void theBuildContextLeavesGitAndStaleBuildOutputOut() throws IOException {
        List<String> ignore = Files.readAllLines(Overlay.repoDir().resolve(".dockerignore"));
        assertThat(ignore).contains(".git", "**/target");
        for (String service : Overlay.SERVICES.keySet()) {
            assertThat(ignore).contains("!" + service + "/target/quarkus-app");
        }
    }

    /**
     * Two stages: Mandrel for Java 25 runs {@code ./mvnw package -Pnative} for the service; the runtime stage, on
     * {@code runtimeBase}, copies nothing but the service's runner from it, runs it as a numeric non-root user on the
     * service's port and listens on all interfaces.
     */
    private static void assertNativeBuildRunsTheExecutableAloneOn(String service, String name, String runtimeBase)
            throws IOException {
        String dockerfile = read(service, name);
        List<String> bases = bases(dockerfile);
        assertThat(bases).hasSize(2).allSatisfy(base -> assertThat(ImagePinningTest.isPinned(base)).as("base %s pinned", base).isTrue());
        assertThat(bases.getFirst()).startsWith("quay.io/quarkus/ubi9-quarkus-mandrel-builder-image:jdk-25");
        assertThat(bases.getLast()).startsWith(runtimeBase);
        Matcher build = Pattern.compile("^RUN\\s+\\./mvnw\\s+(.+)$", Pattern.MULTILINE).matcher(dockerfile);
        assertThat(build.find()).as("a ./mvnw build").isTrue();
        assertThat(build.group(1)).contains("-Pnative").contains("-pl " + service).contains("-am").contains("package");
        String runtimeStage = dockerfile.substring(dockerfile.lastIndexOf("\nFROM "));
        assertThat(COPY.matcher(runtimeStage).results().map(m -> m.group(1)).toList()).as("COPY of the runtime stage of %s", name)
                .singleElement().satisfies(copy -> assertThat(copy).startsWith("--from=build ")
                        .endsWith(" /code/" + service + "/target/*-runner /work/application"));
        assertThat(runtimeStage).contains("ENTRYPOINT [ \"./application\", \"-Dquarkus.http.host=0.0.0.0\" ]");
        assertNonRootUser(dockerfile);
        assertExposes(dockerfile, service);
    }

    private static void assertNonRootUser(String dockerfile) {
        Matcher users = USER.matcher(dockerfile);
        String last = null;
        while (users.find()) {
            last = users.group(1);
        }
        assertThat(last).as("final USER").isNotNull().matches("\\d+").isNotEqualTo("0");
    }

    private static void assertExposes(String dockerfile, String service) {
        Matcher expose = EXPOSE.matcher(dockerfile);
        assertThat(expose.find()).isTrue();
        assertThat(Integer.parseInt(expose.group(1))).isEqualTo(Overlay.SERVICES.get(service));
    }

    private static List<String> bases(String dockerfile) {
        return FROM.matcher(dockerfile).results().map(m -> m.group(1)).toList();
    }

    private static String read(String service, String name) throws IOException {
        Path path = Overlay.repoDir().resolve(service).resolve("src/main/docker").resolve(name);
        assertThat(path).as("%s of %s", name, service).exists();
        return Files.readString(path);
    }
}
