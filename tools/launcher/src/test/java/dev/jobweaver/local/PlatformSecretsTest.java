package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The admin key and the secret key of a home folder: their format, the file they live in, and their reuse. */
class PlatformSecretsTest {

    @TempDir
    Path home;

    @Test
    void theAdminKeyIsJwAndTheBase64UrlOf32RandomBytesAndTheSecretKeyTheBase64Of32() {
        PlatformSecrets secrets = PlatformSecrets.generate(new SecureRandom());

        assertThat(secrets.adminKey()).matches("jw_[A-Za-z0-9_-]{43}");
        assertThat(Base64.getUrlDecoder().decode(secrets.adminKey().substring(3))).hasSize(32);
        assertThat(Base64.getDecoder().decode(secrets.secretKey())).hasSize(32);
        assertThat(PlatformSecrets.generate(new SecureRandom())).as("random each time").isNotEqualTo(secrets);
    }

    @Test
    void theFirstStartWritesThemReadableByItsOwnerOnlyAndLaterStartsReuseThem() throws Exception {
        PlatformSecrets first = PlatformSecrets.loadOrCreate(home.resolve("new-home"));
        Path file = home.resolve("new-home").resolve("secrets.properties");

        assertThat(file).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file)).contains(first.adminKey(), first.secretKey());
        assertThat(PlatformSecrets.loadOrCreate(home.resolve("new-home"))).isEqualTo(first);
        assertThat(PlatformSecrets.load(home.resolve("new-home"))).contains(first);
        try (var files = Files.list(home.resolve("new-home"))) {
            assertThat(files).as("no partial file left behind").containsExactly(file);
        }
    }

    @Test
    void aHomeWithoutTheFileHasNoSecretsUntilTheFirstStart() {
        assertThat(PlatformSecrets.load(home)).isEmpty();
        assertThat(home.resolve("secrets.properties")).doesNotExist();
    }

    @Test
    void aFileOthersCouldReadIsMadeOwnerOnlyWhenRead() throws Exception {
        PlatformSecrets made = PlatformSecrets.loadOrCreate(home);
        Path file = PlatformSecrets.file(home);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThat(PlatformSecrets.loadOrCreate(home)).isEqualTo(made);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void aDamagedFileIsRefusedNeverReplacedSinceStoredWebhookSecretsDependOnIt() throws Exception {
        Path file = PlatformSecrets.file(home);
        Files.writeString(file, "jobweaver.security.bootstrap-admin-key=jw_short\n"
                + "jobweaver.security.secret-key=" + Base64.getEncoder().encodeToString(new byte[32]) + "\n");

        assertThatThrownBy(() -> PlatformSecrets.loadOrCreate(home)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("admin key")
                .hasMessageContaining("not replaced");
        assertThat(Files.readString(file)).contains("jw_short");
    }

    @Test
    void theApiGetsBothAsEnvironmentVariablesMicroProfileConfigMapsToTheSecurityKeys() {
        PlatformSecrets secrets = PlatformSecrets.generate(new SecureRandom());

        assertThat(secrets.apiEnvironment()).isEqualTo(Map.of(
                "JOBWEAVER_SECURITY_BOOTSTRAP_ADMIN_KEY", secrets.adminKey(),
                "JOBWEAVER_SECURITY_SECRET_KEY", secrets.secretKey()));
    }

    @Test
    void neitherSecretShowsInItsTextForm() {
        PlatformSecrets secrets = PlatformSecrets.generate(new SecureRandom());

        assertThat(secrets.toString()).doesNotContain(secrets.adminKey(), secrets.secretKey());
    }
}
