package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressRule;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The API's secrets in every overlay: the bootstrap admin key and the key of webhook secrets come from the Secret
 * jobweaver-api-security (dev generates a marked development one, prod renders none and expects it); the JWT public key
 * is a file from the Secret jobweaver-jwt, with an issuer per overlay; prod reaches the API over TLS through an Ingress
 * that routes the API and the dashboard only.
 */
class ApiSecurityTest {

    static final String SECRET = "jobweaver-api-security";
    static final Map<String, String> VARIABLES = Map.of(
            "JOBWEAVER_SECURITY_BOOTSTRAP_ADMIN_KEY", "bootstrap-admin-key",
            "JOBWEAVER_SECURITY_SECRET_KEY", "secret-key");
    static final String JWT_FILE = "/etc/jobweaver/jwt/public.pem";
    private static final Pattern ADMIN_KEY = Pattern.compile("jw_[A-Za-z0-9_-]{32,128}");

    private static Container api(Overlay overlay) {
        return overlay.workload("api-service").mainContainer();
    }

    private static Optional<EnvVar> variable(Container container, String name) {
        return Stream.ofNullable(container.getEnv()).flatMap(List::stream).filter(v -> v.getName().equals(name))
                .findFirst();
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void theApiReadsBothSecurityVariablesFromItsSecret(Overlay overlay) {
        for (var expected : VARIABLES.entrySet()) {
            EnvVar var = variable(api(overlay), expected.getKey()).orElseThrow(() -> new AssertionError(
                    overlay + ": the API has no " + expected.getKey()));
            assertThat(var.getValue()).as("%s is no literal", expected.getKey()).isNull();
            SecretKeySelector ref = var.getValueFrom().getSecretKeyRef();
            assertThat(ref.getName().replaceAll("-[a-z0-9]{10}$", "")).isEqualTo(SECRET);
            assertThat(ref.getKey()).isEqualTo(expected.getValue());
            assertThat(ref.getOptional()).as("%s is required", expected.getKey()).isNotEqualTo(Boolean.TRUE);
        }
        assertThat(overlay.literalEnvironment(api(overlay)).keySet()).as("no security key in a ConfigMap")
                .doesNotContainAnyElementsOf(VARIABLES.keySet());
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void onlyTheApiGetsItsSecrets(Overlay overlay) {
        for (String other : List.of("scheduler-service", "worker-service")) {
            for (Container container : overlay.workload(other).allContainers()) {
                assertThat(VARIABLES.keySet()).as("%s of %s", container.getName(), other)
                        .allSatisfy(name -> assertThat(variable(container, name)).isEmpty());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void theJwtPublicKeyIsAFileFromItsSecret(Overlay overlay) {
        Overlay.Workload workload = overlay.workload("api-service");
        assertThat(overlay.literalEnvironment(api(overlay))).containsEntry("JOBWEAVER_JWT_PUBLIC_KEY_LOCATION",
                JWT_FILE);
        VolumeMount mount = api(overlay).getVolumeMounts().stream()
                .filter(m -> JWT_FILE.startsWith(m.getMountPath() + "/")).findFirst().orElseThrow();
        assertThat(mount.getReadOnly()).isTrue();
        Volume volume = workload.pod().getVolumes().stream().filter(v -> v.getName().equals(mount.getName()))
                .findFirst().orElseThrow();
        assertThat(volume.getSecret().getSecretName().replaceAll("-[a-z0-9]{10}$", "")).isEqualTo("jobweaver-jwt");
        assertThat(volume.getSecret().getOptional()).as("the API fails requests without it").isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void everyDeployableOverlayNamesItsJwtIssuer() {
        for (Overlay overlay : Overlay.DEPLOYABLE) {
            assertThat(overlay.literalEnvironment(api(overlay)).get("JOBWEAVER_JWT_ISSUER")).as("%s", overlay)
                    .startsWith("https://");
        }
    }

    @Test
    void prodInlinesNoSecretValue() {
        assertThat(Overlay.PROD.all(Secret.class)).as("prod renders no Secret").isEmpty();
        for (ConfigMap map : Overlay.PROD.all(ConfigMap.class)) {
            Optional.ofNullable(map.getData()).orElse(Map.of()).forEach((key, value) -> {
                assertThat(key).as("ConfigMap %s", map.getMetadata().getName())
                        .doesNotContain("SECRET_KEY", "ADMIN_KEY", "JAAS", "PASSWORD");
                assertThat(ADMIN_KEY.matcher(value).find()).as("an API key in ConfigMap %s, %s",
                        map.getMetadata().getName(), key).isFalse();
            });
        }
        assertThat(Overlay.PROD.yaml()).doesNotContain("DEV-ONLY", "jw_DEV");
    }

    @Test
    void devGeneratesMarkedDevelopmentSecretsOfTheRightShape() throws Exception {
        Secret security = devSecret(SECRET);
        String adminKey = decoded(security, "bootstrap-admin-key");
        assertThat(adminKey).matches(ADMIN_KEY).contains("DEV-ONLY");
        assertThat(Base64.getDecoder().decode(decoded(security, "secret-key"))).as("AES-256: 32 bytes").hasSize(32);

        String pem = decoded(devSecret("jobweaver-jwt"), "public.pem");
        byte[] der = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        assertThat(KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der)).getAlgorithm())
                .isEqualTo("RSA");
        assertThat(Overlay.DEV.dir().resolve("kustomization.yaml")).content().contains("DEV ONLY");
    }

    @Test
    void prodReachesTheApiOverTlsWithACertManagerCertificate() {
        Ingress ingress = Overlay.PROD.get(Ingress.class, "api-service");
        assertThat(ingress.getMetadata().getAnnotations()).containsKey("cert-manager.io/cluster-issuer");
        List<String> tlsHosts = ingress.getSpec().getTls().stream().flatMap(t -> t.getHosts().stream()).toList();
        assertThat(ingress.getSpec().getTls()).allSatisfy(tls -> assertThat(tls.getSecretName()).isNotBlank());
        for (IngressRule rule : ingress.getSpec().getRules()) {
            assertThat(tlsHosts).as("every host is served over TLS").contains(rule.getHost());
            assertThat(rule.getHttp().getPaths()).isNotEmpty().allSatisfy(path -> {
                assertThat(path.getBackend().getService().getName()).isEqualTo("api-service");
                assertThat(path.getBackend().getService().getPort().getName()).isEqualTo("http");
                assertThat(path.getPath()).as("health and metrics stay inside").doesNotStartWith("/q").isNotEqualTo("/");
            });
        }
    }

    private static Secret devSecret(String name) {
        return Overlay.DEV.all(Secret.class).stream()
                .filter(s -> s.getMetadata().getName().replaceAll("-[a-z0-9]{10}$", "").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("dev renders no Secret " + name));
    }

    private static String decoded(Secret secret, String key) {
        return new String(Base64.getMimeDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
    }
}
