package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.jobweaver.local.PlatformSecrets;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlatformStateTest {

    @TempDir
    Path home;

    private static Properties written() {
        Properties p = new Properties();
        p.setProperty("kafka.bootstrap.servers", "127.0.0.1:19092");
        p.setProperty("postgres.port", "15432");
        p.setProperty("kafka.pid", "100");
        p.setProperty("api.security", "secured");
        p.setProperty("service.api-service.url", "http://localhost:18080");
        p.setProperty("service.api-service.pid", "101");
        p.setProperty("service.api-service.ready-ms", "2900");
        p.setProperty("service.worker-service.url", "http://localhost:18082");
        p.setProperty("service.worker-service.pid", "103");
        p.setProperty("service.worker-service-2.url", "http://localhost:18182");
        p.setProperty("service.worker-service-2.pid", "104");
        return p;
    }

    @Test
    void readsEveryInstanceAndTheInfrastructure() {
        PlatformState state = PlatformState.parse(written(), "test", 200);
        assertThat(state.apiUrl()).isEqualTo("http://localhost:18080");
        assertThat(state.postgresPort()).isEqualTo(15432);
        assertThat(state.kafkaPid()).isEqualTo(100);
        assertThat(state.instances()).containsExactly(
                new PlatformState.Instance("api-service", "http://localhost:18080", 101, 2900),
                new PlatformState.Instance("worker-service", "http://localhost:18082", 103, -1),
                new PlatformState.Instance("worker-service-2", "http://localhost:18182", 104, -1));
        assertThat(state.postgresPid()).isEqualTo(200);
        assertThat(state.sampledProcesses()).containsExactly(
                new SampledProcess("api-service", 101, false),
                new SampledProcess("worker-service", 103, false),
                new SampledProcess("worker-service-2", 104, false),
                new SampledProcess("kafka", 100, false),
                new SampledProcess("postgres", 200, true));
    }

    @Test
    void withoutAnApiThereIsNothingToBenchmark() {
        Properties p = written();
        p.remove("service.api-service.url");
        assertThatThrownBy(() -> PlatformState.parse(p, "f", -1)).hasMessageContaining("no api-service in f");
    }

    @Test
    void withoutThePostgresPortTheTimestampsCannotBeRead() {
        Properties p = written();
        p.remove("postgres.port");
        assertThatThrownBy(() -> PlatformState.parse(p, "f", -1)).hasMessageContaining("no postgres.port");
    }

    @Test
    void aMissingFileSaysThePlatformIsNotUp() {
        assertThatThrownBy(() -> PlatformState.load(home)).hasMessageContaining("the platform is not up")
                .hasMessageContaining("./jobweaver up");
    }

    @Test
    void loadsTheFileThePlatformWrites() throws IOException {
        try (var writer = Files.newBufferedWriter(home.resolve("platform.properties"))) {
            written().store(writer, "test");
        }
        assertThat(PlatformState.load(home).instances()).hasSize(3);
        assertThat(PlatformState.load(home).postgresPid()).as("no postmaster.pid").isEqualTo(-1);
        Path data = Files.createDirectories(home.resolve("postgres/data"));
        Files.writeString(data.resolve("postmaster.pid"), "4711\n/data\n1795256474\n15432\n");
        assertThat(PlatformState.load(home).postgresPid()).isEqualTo(4711);
    }

    @Test
    void aSecuredPlatformsClientsSendTheAdminKeyUpKeepsInTheHome() {
        PlatformState state = PlatformState.parse(written(), "test", -1);
        PlatformSecrets secrets = PlatformSecrets.loadOrCreate(home);

        assertThat(state.secured()).isTrue();
        assertThat(state.apiKey(home)).isEqualTo(secrets.adminKey());
    }

    @Test
    void aSecuredPlatformWithoutItsKeyIsRefusedWithTheFileNamed() {
        PlatformState state = PlatformState.parse(written(), "test", -1);

        assertThatThrownBy(() -> state.apiKey(home)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(home.resolve("secrets.properties").toString()).hasMessageContaining("--home");
    }

    @Test
    void anInsecurePlatformGetsNoKey() {
        Properties open = written();
        open.setProperty("api.security", "insecure");
        PlatformSecrets.loadOrCreate(home);

        PlatformState state = PlatformState.parse(open, "test", -1);
        assertThat(state.secured()).isFalse();
        assertThat(state.apiKey(home)).isNull();
    }

    @Test
    void namesWhatRanTheServicesJvmUnlessTheLauncherWroteNative() {
        PlatformState jvm = PlatformState.parse(written(), "test", 200);
        assertThat(jvm.runtime()).isEqualTo("JVM");
        assertThat(jvm.describe()).isEqualTo("services on the JVM (api-service, worker-service, worker-service-2)");

        Properties p = written();
        p.setProperty("platform.runtime", "native");
        PlatformState natively = PlatformState.parse(p, "test", 200);
        assertThat(natively.runtime()).isEqualTo("native");
        assertThat(natively.describe()).startsWith("services as native executables (api-service");
    }
}
