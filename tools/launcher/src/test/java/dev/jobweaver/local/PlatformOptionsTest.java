package dev.jobweaver.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JVM options, tracing settings and secrets every service gets, and how JOBWEAVER_JAVA_OPTS adds to them. */
class PlatformOptionsTest {

    @Test
    void noExtraOptionsKeepsTheDefaults() {
        assertEquals(Platform.Options.DEFAULT_JVM, Platform.Options.jvmWith(null));
        assertEquals(Platform.Options.DEFAULT_JVM, Platform.Options.jvmWith("   "));
    }

    @Test
    void extraOptionsComeAfterTheDefaultsSoTheyWin() {
        List<String> expected = new ArrayList<>(Platform.Options.DEFAULT_JVM);
        expected.add("-Xmx512m");
        expected.add("-XX:StartFlightRecording=filename=/tmp/%p.jfr");
        assertEquals(expected, Platform.Options.jvmWith("  -Xmx512m \t -XX:StartFlightRecording=filename=/tmp/%p.jfr "));
    }

    @Test
    void withoutATraceViewerNoSpanIsRecordedAndNoSqlKafkaOrHttpServerSpanIsMade() {
        assertEquals(Map.of("quarkus.otel.traces.sampler.arg", "0.0",
                        "quarkus.otel.instrument.vertx-sql-client", "false",
                        "quarkus.otel.instrument.vertx-http", "false",
                        "mp.messaging.connector.smallrye-kafka.tracing-enabled", "false"),
                Platform.withoutTraceViewer());
    }

    @Test
    void servicesGetTwoMallocArenasAndMappedLargeBlocksUnlessTheOperatorSaysOtherwise() {
        Map<String, String> env = new HashMap<>();
        ServiceProcess.tuneMalloc(env);
        assertEquals("2", env.get("MALLOC_ARENA_MAX"));
        assertEquals("32768", env.get("MALLOC_MMAP_THRESHOLD_"));

        Map<String, String> own = new HashMap<>(Map.of("MALLOC_ARENA_MAX", "4", "MALLOC_MMAP_THRESHOLD_", "131072"));
        ServiceProcess.tuneMalloc(own);
        assertEquals("4", own.get("MALLOC_ARENA_MAX"));
        assertEquals("131072", own.get("MALLOC_MMAP_THRESHOLD_"));
    }

    @Test
    void theApiAloneGetsTheHomesSecretsInItsEnvironmentNotOnItsCommandLine() {
        Platform platform = new Platform(options(false), line -> { });
        platform.loadSecrets();
        PlatformSecrets secrets = PlatformSecrets.load(home).orElseThrow();
        assertEquals(true, java.nio.file.Files.exists(home.resolve("jwt-public.pem")), "the JWT key is there");

        ServiceProcess.Spec api = platform.spec(Platform.Service.API, 1);
        assertEquals(secrets.adminKey(), api.environment().get("JOBWEAVER_SECURITY_BOOTSTRAP_ADMIN_KEY"));
        assertEquals(secrets.secretKey(), api.environment().get("JOBWEAVER_SECURITY_SECRET_KEY"));
        List<String> command = ServiceProcess.commandLine(api.jvmOptions(), api.config(), api.artefact());
        assertFalse(String.join(" ", command).contains(secrets.adminKey()), "the admin key on the command line");
        assertFalse(String.join(" ", command).contains(secrets.secretKey()), "the secret key on the command line");
        assertNull(api.config().get("jobweaver.security.enabled"), "secured: the API's own default");
        assertEquals(java.util.Optional.of(secrets.adminKey()), platform.adminKey());

        assertEquals(Map.of(), platform.spec(Platform.Service.SCHEDULER, 1).environment());
        assertEquals(Map.of(), platform.spec(Platform.Service.WORKER, 1).environment());
    }

    @Test
    void webhooksAndHttpJobsMayReachLocalServicesUnlessTheUserSaysOtherwise() {
        Platform platform = new Platform(options(false), line -> { });

        assertEquals("true", platform.spec(Platform.Service.API, 1).config()
                .get("jobweaver.api.notifications.allow-private"));
        assertEquals("true", platform.spec(Platform.Service.WORKER, 1).config()
                .get("jobweaver.worker.http.allow-private"));
        assertNull(platform.spec(Platform.Service.SCHEDULER, 1).config().get("jobweaver.worker.http.allow-private"));
        LocalStack.Settings stack = new LocalStack.Settings(home, 19092, 19093, 15432, "512m", Map.of(), false);
        Platform strict = new Platform(new Platform.Options(Path.of("."), stack, Map.of(), Map.of(),
                Map.of(Platform.Service.WORKER, Map.of("jobweaver.worker.http.allow-private", "false")),
                Platform.Options.DEFAULT_JVM, null, Duration.ofSeconds(1), 0, null, false, false), line -> { });
        assertEquals("false", strict.spec(Platform.Service.WORKER, 1).config()
                .get("jobweaver.worker.http.allow-private"), "--config worker:... wins");
    }

    @Test
    void anInsecurePlatformTurnsTheApisSecurityOffAndHasNoKeyForClients() {
        Platform platform = new Platform(options(true), line -> { });
        platform.loadSecrets();

        ServiceProcess.Spec api = platform.spec(Platform.Service.API, 1);
        assertEquals("false", api.config().get("jobweaver.security.enabled"));
        assertEquals(PlatformSecrets.load(home).orElseThrow().secretKey(),
                api.environment().get("JOBWEAVER_SECURITY_SECRET_KEY"), "webhook secrets are still encrypted");
        assertEquals(java.util.Optional.empty(), platform.adminKey());
    }

    @Test
    void theApiLooksForTheJwtPublicKeyInTheHomeUnlessTheEnvironmentNamesOne() {
        PlatformSecrets secrets = PlatformSecrets.generate(new java.security.SecureRandom());

        Map<String, String> byDefault = Platform.apiEnvironment(secrets, home, Map.of());
        assertEquals(home.resolve("jwt-public.pem").toString(), byDefault.get("JOBWEAVER_JWT_PUBLIC_KEY_LOCATION"));
        assertEquals(secrets.adminKey(), byDefault.get("JOBWEAVER_SECURITY_BOOTSTRAP_ADMIN_KEY"));

        Map<String, String> named = Platform.apiEnvironment(secrets, home,
                Map.of("JOBWEAVER_JWT_PUBLIC_KEY_LOCATION", "https://idp.example/certs"));
        assertNull(named.get("JOBWEAVER_JWT_PUBLIC_KEY_LOCATION"), "the inherited variable is left to apply");
    }

    @Test
    void theJwtKeyTheApiIsPointedAtIsAnRsaPublicKeyAndAKeyPutThereIsKept() throws Exception {
        Path file = home.resolve("jwt-public.pem");
        Platform.ensureJwtPublicKey(file);

        String pem = java.nio.file.Files.readString(file);
        byte[] der = java.util.Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        assertEquals("RSA", java.security.KeyFactory.getInstance("RSA")
                .generatePublic(new java.security.spec.X509EncodedKeySpec(der)).getAlgorithm());
        assertFalse(pem.contains("PRIVATE"));

        java.nio.file.Files.writeString(file, "an identity provider's key");
        Platform.ensureJwtPublicKey(file);
        assertEquals("an identity provider's key", java.nio.file.Files.readString(file));
    }

    @org.junit.jupiter.api.io.TempDir
    Path home;

    private Platform.Options options(boolean insecure) {
        LocalStack.Settings stack = new LocalStack.Settings(home, 19092, 19093, 15432, "512m", Map.of(), false);
        return new Platform.Options(Path.of("."), stack, Map.of(), Map.of(), Map.of(), Platform.Options.DEFAULT_JVM,
                null, Duration.ofSeconds(1), 0, null, false, insecure);
    }

    @Test
    void theShortConstructorRunsWithoutAotCachesAndStartsEverythingAtOnce() {
        Platform.Options options = new Platform.Options(Path.of("."), null, Map.of(), Map.of(), Map.of(),
                Platform.Options.DEFAULT_JVM, null, Duration.ofSeconds(1), 0);
        assertNull(options.aotCaches());
        assertFalse(options.oneAtATime());
        assertFalse(options.insecure());
    }

    @Test
    void aNativePlatformRunsEachExecutableWithItsHeapCapAndItsConfigurationAsSystemProperties() {
        Platform platform = new Platform(options(false).natively(Platform.Options.NATIVE), line -> { });
        ServiceProcess.Spec worker = platform.spec(Platform.Service.WORKER, 1);
        Path executable = Path.of(".").resolve("worker-service/target/jobweaver-worker-service-1.0.0-SNAPSHOT-runner");
        assertEquals(executable, worker.artefact());
        assertEquals(List.of("-Xmx40m", "-XX:+ExitOnOutOfMemoryError"), worker.jvmOptions());
        assertEquals(List.of("-Xmx80m", "-XX:+ExitOnOutOfMemoryError"),
                platform.spec(Platform.Service.API, 1).jvmOptions());

        List<String> command = ServiceProcess.commandLine(worker.jvmOptions(), Map.of("b", "2", "a", "1"), executable);
        assertEquals(List.of(executable.toString(), "-Xmx40m", "-XX:+ExitOnOutOfMemoryError", "-Da=1", "-Db=2"),
                command);
        assertNull(platform.aotCache(Platform.Service.WORKER), "no AOT cache for an executable");
    }

    @Test
    void aNativeMigrationStartsTheExecutableWithASmallHeapAndNoJvmOptions() {
        Path executable = Path.of("/repo/worker-service/target/jobweaver-worker-service-1.0.0-SNAPSHOT-runner");
        List<String> command = new SchemaMigration("worker-service", executable, Map.of(), Map.of(), home).command();
        assertEquals(List.of(executable.toString(), "-Xmx128m"), command.subList(0, 2));
        assertEquals(true, command.contains("-Dquarkus.init-and-exit=true"));
        assertFalse(command.contains("-jar"));
        assertFalse(command.stream().anyMatch(arg -> arg.startsWith("-XX:")));
    }

    @Test
    void missingExecutablesAreNamedOnlyWhenThePlatformRunsThem() {
        assertEquals(List.of(), new Platform(options(false), line -> { }).missingExecutables());
        assertEquals(3, new Platform(options(false).natively(Platform.Options.NATIVE), line -> { })
                .missingExecutables().size());
    }
}
