package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a service's AOT cache counts as usable, and what invalidates it. */
class AotCacheTest {

    private static final List<String> JVM = List.of("-Xmx128m", "-XX:+UseSerialGC");

    @TempDir
    Path dir;
    private Path app;
    private Path caches;

    @BeforeEach
    void anApplication() throws IOException {
        app = dir.resolve("quarkus-app");
        Files.createDirectories(app.resolve("lib/main"));
        Files.writeString(app.resolve("quarkus-run.jar"), "runner");
        Files.writeString(app.resolve("lib/main/a.jar"), "a");
        caches = dir.resolve("aot");
    }

    private AotCache cache() {
        return new AotCache(caches, "api-service", AotCache.fingerprint(app, JVM, "jdk-25"), true);
    }

    private void train(AotCache cache) throws IOException {
        Files.createDirectories(caches);
        Files.writeString(cache.trainingOutput(), "cache bytes");
        assertTrue(cache.commit());
    }

    @Test
    void noCacheUntilATrainingRunWroteOne() throws IOException {
        AotCache cache = cache();
        assertFalse(cache.isUsable());
        assertEquals(List.of(), cache.runOptions());
        assertEquals(List.of("-XX:AOTCacheOutput=" + cache.trainingOutput()), cache.trainingOptions());

        train(cache);

        assertTrue(cache().isUsable());
        assertEquals(List.of("-XX:AOTCache=" + caches.resolve("api-service.aot")), cache().runOptions());
        assertFalse(Files.exists(cache.trainingOutput()));
    }

    @Test
    void aTrainingRunThatWroteNothingLeavesNoCache() throws IOException {
        Files.createDirectories(caches);
        AotCache cache = cache();
        assertFalse(cache.commit());
        Files.writeString(cache.trainingOutput(), ""); // a killed JVM can leave an empty file
        assertFalse(cache.commit());
        assertFalse(cache.isUsable());
    }

    @Test
    void aRebuiltJarMakesTheCacheStale() throws IOException {
        train(cache());
        Path jar = app.resolve("lib/main/a.jar");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5_000));
        assertFalse(cache().isUsable());
    }

    @Test
    void anAddedJarMakesTheCacheStale() throws IOException {
        train(cache());
        Files.writeString(app.resolve("lib/main/b.jar"), "b");
        assertFalse(cache().isUsable());
    }

    @Test
    void anotherJvmMakesTheCacheStale() throws IOException {
        train(cache());
        assertNotEquals(AotCache.fingerprint(app, JVM, "jdk-25"), AotCache.fingerprint(app, JVM, "jdk-26"));
        assertFalse(new AotCache(caches, "api-service", AotCache.fingerprint(app, JVM, "jdk-26"), true).isUsable());
    }

    @Test
    void theCacheFileItselfIsNotPartOfTheFingerprint() throws IOException {
        String before = AotCache.fingerprint(app, JVM, "jdk-25");
        Files.writeString(app.resolve("app.aot"), "a cache Quarkus may have built beside the jar");
        Files.writeString(app.resolve("app.aot.config"), "its configuration");
        assertEquals(before, AotCache.fingerprint(app, JVM, "jdk-25"));
    }

    @Test
    void onlyOptionsThatShapeTheCacheCount() {
        String base = AotCache.fingerprint(app, JVM, "jdk-25");
        assertEquals(base, AotCache.fingerprint(app, List.of("-Xmx512m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=4", "-XX:NativeMemoryTracking=summary"), "jdk-25"));
        assertNotEquals(base, AotCache.fingerprint(app, List.of("-Xmx128m", "-XX:+UseG1GC"), "jdk-25"));
        assertNotEquals(base, AotCache.fingerprint(app, List.of("-Xmx128m", "-XX:+UseSerialGC",
                "--add-opens=java.base/java.lang=ALL-UNNAMED"), "jdk-25"));
    }

    @Test
    void methodProfilesAreRecordedOnlyForAJitThatReadsThem() {
        assertTrue(AotCache.profilesAreRead(JVM));
        assertFalse(AotCache.profilesAreRead(Platform.Options.DEFAULT_JVM));
        assertTrue(AotCache.profilesAreRead(Platform.Options.jvmWith("-XX:TieredStopAtLevel=4")));
        assertTrue(AotCache.profilesAreRead(List.of("-XX:TieredStopAtLevel=1", "-XX:-TieredCompilation")));
        assertFalse(AotCache.profilesAreRead(List.of("-XX:TieredStopAtLevel=3")));

        AotCache c1Only = new AotCache(caches, "api-service", "key", false);
        assertEquals(List.of("-XX:AOTCacheOutput=" + c1Only.trainingOutput(), "-XX:+UnlockDiagnosticVMOptions",
                "-XX:-AOTRecordTraining"), c1Only.trainingOptions());
    }

    @Test
    void aChangeOfJitLevelTrainsAgain() {
        String c2 = AotCache.fingerprint(app, Platform.Options.jvmWith("-XX:TieredStopAtLevel=4"), "jdk-25");
        String c1 = AotCache.fingerprint(app, Platform.Options.DEFAULT_JVM, "jdk-25");
        assertNotEquals(c1, c2);
        assertEquals(c1, AotCache.fingerprint(app, Platform.Options.jvmWith("-XX:TieredStopAtLevel=2"), "jdk-25"));
    }

    @Test
    void anOperatorsOwnCacheOrArchiveKeepsTheLauncherOut() {
        assertTrue(AotCache.namedIn(List.of("-Xmx128m", "-XX:AOTCache=/tmp/mine.aot")));
        assertTrue(AotCache.namedIn(List.of("-XX:SharedArchiveFile=app.jsa")));
        assertTrue(AotCache.namedIn(List.of("-XX:AOTMode=off")));
        assertFalse(AotCache.namedIn(Platform.Options.DEFAULT_JVM));
    }

    @Test
    void aRetrainedCacheReplacesTheOldOne() throws IOException {
        train(cache());
        Files.writeString(app.resolve("lib/main/b.jar"), "b");
        AotCache retrained = cache();
        assertFalse(retrained.isUsable());
        Files.writeString(retrained.trainingOutput(), "new cache bytes");
        assertTrue(retrained.commit());
        assertTrue(cache().isUsable());
        assertEquals("new cache bytes", Files.readString(retrained.file()));
    }
}
