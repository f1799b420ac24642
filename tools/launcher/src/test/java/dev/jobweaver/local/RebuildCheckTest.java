package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code jobweaver} script's {@code stale} check, run by bash on a tree of its own: a module is rebuilt when its
 * artefact is missing or older than its main sources, its pom or common's, and never because of a test.
 */
class RebuildCheckTest {

    private static final Path SCRIPT = Path.of("../../jobweaver");
    private static final Instant BUILT = Instant.parse("2026-11-30T10:00:00Z");

    @TempDir
    Path root;

    @BeforeEach
    void aBuiltTree() throws IOException {
        for (String file : new String[] {"common/src/main/java/C.java", "common/src/test/java/CTest.java",
                "common/pom.xml", "api-service/src/main/java/A.java", "api-service/src/test/java/ATest.java",
                "api-service/pom.xml"}) {
            write(file, BUILT.minusSeconds(60));
        }
        for (String artefact : new String[] {"common/target/jobweaver-common.jar",
                "tools/launcher/target/jobweaver-launcher.jar", "tools/bench/target/jobweaver-bench.jar",
                "api-service/target/quarkus-app/quarkus-run.jar"}) {
            write(artefact, BUILT);
        }
    }

    @Test
    void aBuiltModuleIsCurrent() throws Exception {
        assertThat(stale("api-service")).isFalse();
    }

    @Test
    void aNewerMainSourceOrPomMakesItStale() throws Exception {
        write("api-service/src/main/java/A.java", BUILT.plusSeconds(1));
        assertThat(stale("api-service")).isTrue();
        write("api-service/src/main/java/A.java", BUILT.minusSeconds(60));
        write("api-service/pom.xml", BUILT.plusSeconds(1));
        assertThat(stale("api-service")).isTrue();
    }

    @Test
    void aNewerCommonSourceMakesEveryModuleStale() throws Exception {
        write("common/src/main/java/C.java", BUILT.plusSeconds(1));
        assertThat(stale("api-service")).isTrue();
    }

    @Test
    void aNewTestRebuildsNothing() throws Exception {
        write("api-service/src/test/java/ANewTest.java", BUILT.plusSeconds(1));
        write("common/src/test/java/CNewTest.java", BUILT.plusSeconds(1));
        assertThat(stale("api-service")).isFalse();
    }

    @Test
    void aMissingArtefactMakesItStale() throws Exception {
        Files.delete(root.resolve("api-service/target/quarkus-app/quarkus-run.jar"));
        assertThat(stale("api-service")).isTrue();
    }

    private void write(String file, Instant modified) throws IOException {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        if (!Files.exists(path)) {
            Files.writeString(path, file);
        }
        Files.setLastModifiedTime(path, FileTime.from(modified));
        // a new file also touches its folder, which find -newer would report as well
        for (Path dir = path.getParent(); dir.startsWith(root) && !dir.equals(root); dir = dir.getParent()) {
            Files.setLastModifiedTime(dir, FileTime.from(BUILT.minusSeconds(120)));
        }
    }

    /** Runs the script's own {@code stale} function on {@code module} in {@link #root}. */
    private boolean stale(String module) throws Exception {
        String function = extractStale(Files.readString(SCRIPT));
        String program = function + "\nLAUNCHER=tools/launcher/target/jobweaver-launcher.jar\n"
                + "BENCH=tools/bench/target/jobweaver-bench.jar\n"
                + "if stale " + module + "; then echo stale; else echo current; fi\n";
        Process bash = new ProcessBuilder("bash", "-c", program).directory(root.toFile()).redirectErrorStream(true)
                .start();
        String out = new String(bash.getInputStream().readAllBytes()).strip();
        assertThat(bash.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as("the check's answer").isIn("stale", "current");
        return out.equals("stale");
    }

    private static String extractStale(String script) {
        int start = script.indexOf("\nstale() {");
        assertThat(start).as("the script defines stale()").isPositive();
        int end = script.indexOf("\n}\n", start);
        return script.substring(start + 1, end + 2);
    }
}
