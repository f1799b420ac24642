package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the native-image builder is found: GRAALVM_HOME, then the PATH, then the cache folder; else what to do. */
class NativeBuilderTest {

    @TempDir
    Path dir;

    /** A GraalVM-like home: {@code bin/native-image} a link into {@code lib/svm/bin}, as GraalVM lays it out. */
    private Path home(String name) throws IOException {
        Path home = dir.resolve(name);
        Path launcher = home.resolve("lib/svm/bin/native-image");
        Files.createDirectories(launcher.getParent());
        Files.writeString(launcher, "#!/bin/sh\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(home.resolve("bin"));
        Files.createSymbolicLink(home.resolve("bin/native-image"), Path.of("../lib/svm/bin/native-image"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"25\"\n");
        return home;
    }

    @Test
    void graalvmHomeComesFirst() throws IOException {
        Path graal = home("graal");
        Path onPath = home("on-path");
        var found = NativeBuilder.find(Map.of("GRAALVM_HOME", graal.toString(), "PATH",
                onPath.resolve("bin").toString()), dir);
        assertThat(found).hasValueSatisfying(f -> {
            assertThat(f.home()).isEqualTo(graal);
            assertThat(f.how()).isEqualTo("GRAALVM_HOME");
        });
    }

    @Test
    void aGraalvmHomeWithoutNativeImageIsPassedOverForThePath() throws IOException {
        Path onPath = home("on-path");
        var found = NativeBuilder.find(Map.of("GRAALVM_HOME", dir.resolve("nothing").toString(), "PATH",
                "/nonexistent:" + onPath.resolve("bin")), dir);
        assertThat(found.map(NativeBuilder.Found::home)).hasValue(onPath);
    }

    @Test
    void nativeImageLinkedFromElsewhereOnThePathLeadsToItsHome() throws IOException {
        Path graal = home("graal");
        Path usrBin = Files.createDirectories(dir.resolve("usr/bin"));
        Files.createSymbolicLink(usrBin.resolve("native-image"), graal.resolve("bin/native-image"));
        var found = NativeBuilder.find(Map.of("PATH", usrBin.toString()), dir);
        assertThat(found.map(NativeBuilder.Found::home)).hasValue(graal.toRealPath());
    }

    @Test
    void theCacheFolderUnderXdgCacheHomeOrHomeDotCacheComesLast() throws IOException {
        Path cached = home("xdg/jobweaver/native-image");
        var found = NativeBuilder.find(Map.of("XDG_CACHE_HOME", dir.resolve("xdg").toString(), "PATH", "/nonexistent"),
                dir);
        assertThat(found).hasValueSatisfying(f -> {
            assertThat(f.home()).isEqualTo(cached);
            assertThat(f.how()).isEqualTo("the cache folder");
        });
        assertThat(NativeBuilder.cacheFolder(Map.of(), Path.of("/home/me")))
                .isEqualTo(Path.of("/home/me/.cache/jobweaver/native-image"));
        assertThat(NativeBuilder.cacheFolder(Map.of("HOME", "/home/you"), Path.of("/home/me")))
                .as("HOME wins over the JDK's user.home, as in the shell").isEqualTo(
                        Path.of("/home/you/.cache/jobweaver/native-image"));
    }

    @Test
    void withoutAnyBuilderNothingIsFoundAndTheMessageSaysWhatToInstallAndWhere() {
        assertThat(NativeBuilder.find(Map.of("PATH", "/nonexistent"), dir)).isEmpty();
        assertThat(NativeBuilder.notFound(NativeBuilder.cacheFolder(Map.of(), dir)))
                .contains("GraalVM or Mandrel for JDK 25", "GRAALVM_HOME", "PATH",
                        dir.resolve(".cache/jobweaver/native-image").toString());
    }

    @Test
    void withoutABuilderTheBuildRefusesWithThatMessageWhenNoAssemblerIsBesideTheRepository() throws IOException {
        Path root = Files.createDirectories(dir.resolve("alone/repo"));
        assertThat(NativeBuilder.assembler(root)).isEmpty();
        var out = new java.io.ByteArrayOutputStream();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> NativeBuild.builder(root,
                        Map.of("PATH", "/nonexistent"), dir, new java.io.PrintStream(out)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("no native-image builder found");
    }

    @Test
    void theAssemblerIsTheSharedScriptBesideTheRepository() throws IOException {
        Path root = Files.createDirectories(dir.resolve("work/repo"));
        Path script = dir.resolve("work/shared/native/assemble.sh");
        Files.createDirectories(script.getParent());
        Files.writeString(script, "#!/bin/sh\n");
        assertThat(NativeBuilder.assembler(root)).hasValue(script);
    }
}
