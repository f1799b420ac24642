package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each service gets its port, its own database (reactive URL for the service, JDBC URL for Flyway), credentials
 * from a Secret and the Kafka address, all from ConfigMaps and Secrets; in dev every address resolves to a Service
 * of the overlay.
 */
class ServiceConfigurationTest {

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void everyServiceListensOnItsPortBehindItsService(Overlay overlay) {
        for (var service : Overlay.SERVICES.entrySet()) {
            Overlay.Workload workload = overlay.workload(service.getKey());
            Map<String, String> env = overlay.literalEnvironment(workload.mainContainer());
            assertThat(env).containsEntry("QUARKUS_HTTP_PORT", String.valueOf(service.getValue()));
            assertThat(workload.mainContainer().getPorts()).singleElement()
                    .satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(service.getValue()));
            Service kubeService = overlay.get(Service.class, service.getKey());
            assertThat(kubeService.getSpec().getPorts()).singleElement()
                    .satisfies(p -> assertThat(p.getPort()).isEqualTo(service.getValue()));
        }
    }

    @ParameterizedTest
    @EnumSource(value = Overlay.class, mode = EnumSource.Mode.EXCLUDE, names = "PROD_OPERATORS")
    void everyServiceUsesItsOwnDatabase(Overlay overlay) {
        for (var service : Overlay.DATABASES.entrySet()) {
            Map<String, String> env = overlay.literalEnvironment(overlay.workload(service.getKey()).mainContainer());
            URI reactive = URI.create(env.get("QUARKUS_DATASOURCE_REACTIVE_URL"));
            URI jdbc = URI.create(env.get("QUARKUS_DATASOURCE_JDBC_URL").replaceFirst("^jdbc:", ""));
            assertThat(reactive.getScheme()).isEqualTo("postgresql");
            assertThat(jdbc.getScheme()).isEqualTo("postgresql");
            assertThat(reactive.getPath()).isEqualTo("/" + service.getValue());
            assertThat(jdbc.getPath()).isEqualTo("/" + service.getValue());
            assertThat(jdbc.getHost()).isEqualTo(reactive.getHost());
            assertThat(jdbc.getPort()).isEqualTo(reactive.getPort());
        }
        assertThat(Overlay.DATABASES.keySet().stream()
                .map(s -> overlay.literalEnvironment(overlay.workload(s).mainContainer()).get("QUARKUS_DATASOURCE_REACTIVE_URL")))
                .as("no two services share a database").doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @EnumSource(Overlay.class)
    void credentialsComeFromTheServicesOwnSecret(Overlay overlay) {
        for (Overlay.Workload workload : overlay.serviceWorkloads()) {
            List<EnvVar> env = workload.mainContainer().getEnv();
            for (String variable : List.of("QUARKUS_DATASOURCE_USERNAME", "QUARKUS_DATASOURCE_PASSWORD")) {
                EnvVar var = env.stream().filter(v -> v.getName().equals(variable)).findFirst().orElseThrow();
                assertThat(var.getValue()).as("%s of %s is no literal", variable, workload).isNull();
                assertThat(var.getValueFrom().getSecretKeyRef().getName()).startsWith(workload.name() + "-db");
            }
            assertThat(overlay.literalEnvironment(workload.mainContainer()).keySet())
                    .as("no password in a ConfigMap or literal of %s", workload)
                    .noneMatch(name -> name.contains("PASSWORD"));
            assertThat(workload.pod().getEnableServiceLinks()).as("service links of %s", workload).isFalse();
        }
    }

    @Test
    void devAddressesResolveToTheOverlaysOwnServices() {
        for (var service : Overlay.DATABASES.entrySet()) {
            Map<String, String> env = Overlay.DEV.literalEnvironment(Overlay.DEV.workload(service.getKey()).mainContainer());
            URI database = URI.create(env.get("QUARKUS_DATASOURCE_REACTIVE_URL"));
            Service dbService = Overlay.DEV.get(Service.class, database.getHost());
            assertThat(dbService.getSpec().getPorts()).anySatisfy(p -> assertThat(p.getPort()).isEqualTo(database.getPort()));
            Overlay.Workload postgres = Overlay.DEV.workload(database.getHost());
            assertThat(Overlay.DEV.literalEnvironment(postgres.mainContainer()))
                    .as("the database %s creates", postgres).containsEntry("POSTGRES_DB", service.getValue());
            String secret = postgres.mainContainer().getEnv().stream().filter(v -> v.getName().equals("POSTGRES_PASSWORD"))
                    .findFirst().orElseThrow().getValueFrom().getSecretKeyRef().getName();
            String serviceSecret = Overlay.DEV.workload(service.getKey()).mainContainer().getEnv().stream()
                    .filter(v -> v.getName().equals("QUARKUS_DATASOURCE_PASSWORD")).findFirst().orElseThrow()
                    .getValueFrom().getSecretKeyRef().getName();
            assertThat(secret).as("database and service share one credential").isEqualTo(serviceSecret);

            String bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS");
            Service kafka = Overlay.DEV.get(Service.class, bootstrap.substring(0, bootstrap.indexOf(':')));
            assertThat(Optional.ofNullable(kafka.getSpec().getPorts()).orElseThrow())
                    .anySatisfy(p -> assertThat(p.getPort()).isEqualTo(Integer.parseInt(bootstrap.substring(bootstrap.indexOf(':') + 1))));
        }
    }
}
