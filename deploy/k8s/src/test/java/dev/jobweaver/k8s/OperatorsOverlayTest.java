package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * overlays/prod-operators: Kafka as Strimzi resources and the databases as CloudNativePG Clusters instead of the plain
 * overlays' StatefulSets and topic Job; every topic of the contract a KafkaTopic with prod's partitions, every service
 * a KafkaUser with exactly the ACLs its configuration needs, and each service reading the Secrets the operators
 * generate. The custom resources' schemas are checked with everything else (KubernetesSchemaTest).
 */
class OperatorsOverlayTest {

    private static final Overlay OVERLAY = Overlay.PROD_OPERATORS;

    @Test
    void runsOnlyTheServicesWithoutTopicJobOrInitContainers() {
        assertThat(OVERLAY.all(StatefulSet.class)).isEmpty();
        assertThat(OVERLAY.all(PersistentVolumeClaim.class)).isEmpty();
        assertThat(OVERLAY.all(Job.class)).isEmpty();
        assertThat(OVERLAY.workloads()).extracting(Overlay.Workload::name)
                .containsExactlyInAnyOrderElementsOf(Overlay.SERVICES.keySet());
        for (Overlay.Workload workload : OVERLAY.serviceWorkloads()) {
            assertThat(workload.pod().getInitContainers()).as("init containers of %s", workload).isNullOrEmpty();
            assertThat(workload.pod().getVolumes()).extracting(Volume::getName).as("volumes of %s", workload)
                    .doesNotContain("topic-scripts", "kafka-client");
        }
        assertThat(OVERLAY.yaml()).doesNotContain("jobweaver-topics", "jobweaver-topic-scripts", "wait-for-topics");
    }

    @Test
    void nothingPointsAtTheHandWrittenStatefulSetsOrProdsExternalAddresses() {
        Set<String> handWritten = new TreeSet<>();
        Overlay.DEV.all(StatefulSet.class).forEach(s -> handWritten.add(s.getMetadata().getName()));
        Overlay.DEV.all(Service.class).stream().map(s -> s.getMetadata().getName())
                .filter(name -> !Overlay.SERVICES.containsKey(name)).forEach(handWritten::add);
        assertThat(handWritten).contains("kafka", "postgres-api", "postgres-scheduler", "postgres-worker");
        for (Overlay.Workload workload : OVERLAY.serviceWorkloads()) {
            Map<String, String> env = OVERLAY.literalEnvironment(workload.mainContainer());
            for (String value : env.values()) {
                for (String name : handWritten) {
                    assertThat(value).as("%s of %s", value, workload).doesNotContainPattern("(^|[/,@])" + name + "[:.]");
                }
                assertThat(value).as("an address of prod's external infrastructure in %s", workload)
                        .doesNotContain(".example.internal");
            }
        }
    }

    @Test
    void kafkaRunsOnKraftNodePoolsWithATlsListenerAndAcls() {
        GenericKubernetesResource kafka = single("Kafka");
        String cluster = kafka.getMetadata().getName();
        List<GenericKubernetesResource> pools = OVERLAY.customResources("KafkaNodePool");
        assertThat(pools).allSatisfy(pool -> assertThat(pool.getMetadata().getLabels())
                .containsEntry("strimzi.io/cluster", cluster));
        assertThat(pools).as("controllers and brokers in pools of their own").anySatisfy(pool ->
                assertThat(list(pool, "spec", "roles")).containsExactly("controller"));
        assertThat(pools).anySatisfy(pool -> assertThat(list(pool, "spec", "roles")).containsExactly("broker"));
        int brokers = pools.stream().filter(p -> list(p, "spec", "roles").contains("broker"))
                .mapToInt(p -> (Integer) p.get("spec", "replicas")).sum();
        int controllers = pools.stream().filter(p -> list(p, "spec", "roles").contains("controller"))
                .mapToInt(p -> (Integer) p.get("spec", "replicas")).sum();
        assertThat(controllers).as("a quorum that survives the loss of one controller").isOdd().isGreaterThanOrEqualTo(3);

        Map<String, Object> config = kafka.get("spec", "kafka", "config");
        assertThat(config).containsEntry("auto.create.topics.enable", false);
        assertThat((Integer) config.get("default.replication.factor")).isLessThanOrEqualTo(brokers);
        assertThat((Integer) config.get("min.insync.replicas")).isLessThan((Integer) config.get("default.replication.factor"));
        assertThat((String) kafka.get("spec", "kafka", "authorization", "type")).isEqualTo("simple");

        Map<String, Object> listener = listener(kafka);
        assertThat(listener).containsEntry("tls", true);
        assertThat((String) kafka.get("spec", "kafka", "listeners", 0, "authentication", "type")).isEqualTo("scram-sha-512");
        Map<String, String> kafkaSettings = OVERLAY.configMap("jobweaver-kafka").getData();
        assertThat(kafkaSettings)
                .containsEntry("KAFKA_BOOTSTRAP_SERVERS", cluster + "-kafka-bootstrap:" + listener.get("port"))
                .containsEntry("KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
                .containsEntry("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512")
                .containsEntry("KAFKA_SSL_TRUSTSTORE_TYPE", "PEM");
        for (Overlay.Workload workload : OVERLAY.serviceWorkloads()) {
            assertThat(mountedSecretFile(workload, kafkaSettings.get("KAFKA_SSL_TRUSTSTORE_LOCATION")))
                    .as("the cluster CA in %s", workload).isEqualTo(cluster + "-cluster-ca-cert/ca.crt");
        }
    }

    @Test
    void everyTopicOfTheContractHasItsKafkaTopicWithProdsPartitionsAndRetention() {
        String cluster = single("Kafka").getMetadata().getName();
        Map<String, String> prod = Overlay.PROD.configMap("jobweaver-topics").getData();
        Map<String, Integer> prodPartitions = ScaleOutTest.partitions(Overlay.PROD);
        List<GenericKubernetesResource> topics = OVERLAY.customResources("KafkaTopic");
        assertThat(topics).extracting(t -> t.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(Topics.ALL.stream().map(Topics.TopicSpec::name).toList());
        for (GenericKubernetesResource topic : topics) {
            String name = topic.getMetadata().getName();
            Topics.TopicSpec contract = Topics.named(name);
            Map<String, Object> config = topic.get("spec", "config");
            assertThat(topic.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", cluster);
            assertThat(KafkaTopicsTest.topicSpec(topic)).as(name).isEqualTo(contract.withPartitions(prodPartitions.get(name)));
            assertThat((Integer) topic.get("spec", "replicas")).as("replicas of %s", name)
                    .isEqualTo(Integer.parseInt(prod.get("TOPIC_REPLICATION_FACTOR")));
            assertThat(config).as("config of %s", name)
                    .containsEntry("min.insync.replicas", Integer.parseInt(prod.get("TOPIC_MIN_INSYNC_REPLICAS")));
            if (contract.compacted()) {
                assertThat(config).as("config of %s, as the topic Job sets it", name)
                        .containsEntry("cleanup.policy", "compact,delete")
                        .containsEntry("retention.ms", Math.toIntExact(Topics.COMPACTED_RETENTION.toMillis()));
            } else {
                assertThat(config).as("config of %s", name).doesNotContainKeys("cleanup.policy", "retention.ms");
            }
        }
    }

    @Test
    void everyServiceHasAUserWithExactlyTheAclsItsConfigurationNeeds() {
        String cluster = single("Kafka").getMetadata().getName();
        List<GenericKubernetesResource> users = OVERLAY.customResources("KafkaUser");
        assertThat(users).extracting(u -> u.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(Overlay.SERVICES.keySet());
        for (GenericKubernetesResource user : users) {
            String service = user.getMetadata().getName();
            assertThat(user.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", cluster);
            assertThat((String) user.get("spec", "authentication", "type")).isEqualTo("scram-sha-512");
            assertThat((String) user.get("spec", "authorization", "type")).isEqualTo("simple");
            assertThat(renderedAcls(user)).as("ACLs of %s", service).isEqualTo(expectedAcls(KafkaUsage.of(service)));
        }
    }

    @Test
    void theDerivedUsageSeesChannelsPublishersAndPerInstanceGroups() {
        KafkaUsage api = KafkaUsage.of("api-service");
        assertThat(api.consumed()).contains(Topics.JOB_STATUS, Topics.JOB_COMPLETED, Topics.JOB_FAILED);
        assertThat(api.produced()).contains(Topics.JOB_CREATED, Topics.SCHEDULES, Topics.QUARANTINE);
        KafkaUsage scheduler = KafkaUsage.of("scheduler-service");
        assertThat(scheduler.produced()).contains(Topics.RUN_JOB, Topics.JOB_STATUS, Topics.WORKER_COMMANDS);
        assertThat(KafkaUsage.of("worker-service").groupPrefixes()).containsExactly("jobweaver-worker-commands-");
    }

    @Test
    void everyServiceReadsItsUsersAndItsClustersSecrets() {
        for (Overlay.Workload workload : OVERLAY.serviceWorkloads()) {
            String service = workload.name();
            List<EnvVar> env = workload.mainContainer().getEnv();
            assertThat(secretKey(env, "KAFKA_SASL_JAAS_CONFIG")).as("%s's SASL login", service)
                    .isEqualTo(service + "/sasl.jaas.config");
            GenericKubernetesResource cluster = OVERLAY.customResources("Cluster").stream()
                    .filter(c -> c.getMetadata().getName().equals(service + "-db")).findFirst()
                    .orElseThrow(() -> new AssertionError("no Cluster " + service + "-db"));
            String app = cluster.getMetadata().getName() + "-app";
            assertThat((String) cluster.get("spec", "bootstrap", "initdb", "database"))
                    .isEqualTo(Overlay.DATABASES.get(service));
            assertThat((String) cluster.get("spec", "bootstrap", "initdb", "owner")).isNotBlank();
            Map<String, String> fromSecret = Map.of("QUARKUS_DATASOURCE_USERNAME", "username",
                    "QUARKUS_DATASOURCE_PASSWORD", "password", "PG_HOST", "host", "PG_PORT", "port", "PG_DBNAME", "dbname");
            fromSecret.forEach((variable, key) -> assertThat(secretKey(env, variable)).as("%s of %s", variable, service)
                    .isEqualTo(app + "/" + key));
            Map<String, String> literal = OVERLAY.literalEnvironment(workload.mainContainer());
            assertThat(literal).containsEntry("QUARKUS_DATASOURCE_REACTIVE_URL", "postgresql://$(PG_HOST):$(PG_PORT)/$(PG_DBNAME)")
                    .containsEntry("QUARKUS_DATASOURCE_JDBC_URL", "jdbc:postgresql://$(PG_HOST):$(PG_PORT)/$(PG_DBNAME)");
            List<String> names = env.stream().map(EnvVar::getName).toList();
            for (String url : List.of("QUARKUS_DATASOURCE_REACTIVE_URL", "QUARKUS_DATASOURCE_JDBC_URL")) {
                assertThat(names.indexOf(url)).as("Kubernetes expands only variables listed before %s", url)
                        .isGreaterThan(Stream.of("PG_HOST", "PG_PORT", "PG_DBNAME").mapToInt(names::indexOf).max().orElseThrow());
            }
        }
    }

    @Test
    void needsOnlyTheOperatorsSecretsAndTheDocumentedOnes() {
        assertThat(OVERLAY.all(Secret.class)).isEmpty();
        Set<String> expected = new HashSet<>(Set.of("jobweaver-api-security", "jobweaver-jwt", "jobweaver-cluster-ca-cert"));
        for (String service : Overlay.SERVICES.keySet()) {
            expected.add(service);
            expected.add(service + "-db-app");
        }
        assertThat(ReferenceIntegrityTest.requiredSecrets(OVERLAY)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void everyDatabaseIsReplicatedAndBackedUpOnASchedule() {
        List<GenericKubernetesResource> clusters = OVERLAY.customResources("Cluster");
        assertThat(clusters).extracting(c -> c.getMetadata().getName())
                .containsExactlyInAnyOrderElementsOf(Overlay.SERVICES.keySet().stream().map(s -> s + "-db").toList());
        List<GenericKubernetesResource> schedules = OVERLAY.customResources("ScheduledBackup");
        for (GenericKubernetesResource cluster : clusters) {
            String name = cluster.getMetadata().getName();
            assertThat((Integer) cluster.get("spec", "instances")).as("instances of %s", name).isGreaterThanOrEqualTo(2);
            assertThat((String) cluster.get("spec", "imageName")).as("image of %s", name).matches(".+:[0-9][^:]*")
                    .doesNotEndWith(":latest");
            assertThat((String) cluster.get("spec", "backup", "barmanObjectStore", "destinationPath")).startsWith("s3://");
            assertThat((String) cluster.get("spec", "backup", "barmanObjectStore", "s3Credentials", "accessKeyId", "name"))
                    .isEqualTo("jobweaver-backup-s3");
            assertThat((String) cluster.get("spec", "backup", "retentionPolicy")).matches("[0-9]+[dwm]");
            assertThat(schedules).as("a ScheduledBackup of %s", name).anySatisfy(schedule -> {
                assertThat((String) schedule.get("spec", "cluster", "name")).isEqualTo(name);
                assertThat((String) schedule.get("spec", "method")).isEqualTo("barmanObjectStore");
                assertThat(((String) schedule.get("spec", "schedule")).split(" ")).as("six-field cron").hasSize(6);
            });
        }
    }

    @Test
    void eachDatabaseAnswersOnlyItsServiceItsInstancesAndTheOperator() {
        NetworkPolicies policies = NetworkPolicyTest.policies(OVERLAY);
        assertThat(OVERLAY.all(NetworkPolicy.class)).isNotEmpty();
        for (String owner : Overlay.SERVICES.keySet()) {
            Map<String, String> database = Map.of("cnpg.io/cluster", owner + "-db", "cnpg.io/podRole", "instance");
            for (Overlay.Workload client : OVERLAY.workloads()) {
                assertThat(policies.allows(NetworkPolicies.Source.pod(client.toString(), client.podLabels()), database, 5432))
                        .as("%s -> database of %s", client, owner).isEqualTo(client.name().equals(owner));
            }
            assertThat(policies.allows(NetworkPolicies.Source.pod("a replica", database), database, 5432)).isTrue();
            assertThat(policies.allows(new NetworkPolicies.Source("the operator", Map.of("app.kubernetes.io/name",
                    "cloudnative-pg"), false, Map.of("kubernetes.io/metadata.name", "cnpg-system"), false), database, 8000))
                    .isTrue();
            assertThat(policies.allows(NetworkPolicies.Source.pod("an intruder", Map.of("app", "intruder")), database, 5432))
                    .isFalse();
        }
    }

    private static GenericKubernetesResource single(String kind) {
        List<GenericKubernetesResource> resources = OVERLAY.customResources(kind);
        assertThat(resources).as("%s resources", kind).hasSize(1);
        return resources.getFirst();
    }

    private static List<Object> list(GenericKubernetesResource resource, Object... path) {
        return resource.get(path);
    }

    private static Map<String, Object> listener(GenericKubernetesResource kafka) {
        List<Map<String, Object>> listeners = kafka.get("spec", "kafka", "listeners");
        assertThat(listeners).as("one listener: the services' only way in").hasSize(1);
        return listeners.getFirst();
    }

    /** "secret/key" of a variable set from a Secret. */
    private static String secretKey(List<EnvVar> env, String variable) {
        SecretKeySelector ref = env.stream().filter(v -> v.getName().equals(variable)).findFirst()
                .orElseThrow(() -> new AssertionError(variable + " is not set")).getValueFrom().getSecretKeyRef();
        return ref.getName() + "/" + ref.getKey();
    }

    /** "secret/key" of the Secret item mounted at {@code file} in the workload's main container. */
    private static String mountedSecretFile(Overlay.Workload workload, String file) {
        Container container = workload.mainContainer();
        var mount = container.getVolumeMounts().stream().filter(m -> file.startsWith(m.getMountPath() + "/")).findFirst()
                .orElseThrow(() -> new AssertionError(file + " is on no mount of " + workload));
        Volume volume = workload.pod().getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
                .orElseThrow();
        String path = file.substring(mount.getMountPath().length() + 1);
        String key = Optional.ofNullable(volume.getSecret().getItems()).orElse(List.of()).stream()
                .filter(item -> item.getPath().equals(path)).map(item -> item.getKey()).findFirst().orElse(path);
        return volume.getSecret().getSecretName() + "/" + key;
    }

    /** Each ACL rule of the user as "type:pattern:name:operation". */
    private static Set<String> renderedAcls(GenericKubernetesResource user) {
        List<Map<String, Object>> acls = user.get("spec", "authorization", "acls");
        Set<String> rules = new TreeSet<>();
        for (Map<String, Object> acl : acls) {
            @SuppressWarnings("unchecked")
            Map<String, Object> resource = (Map<String, Object>) acl.get("resource");
            assertThat(acl.getOrDefault("type", "allow")).isEqualTo("allow");
            String prefix = resource.get("type") + ":" + resource.getOrDefault("patternType", "literal") + ":"
                    + resource.get("name") + ":";
            for (Object operation : (List<?>) acl.get("operations")) {
                rules.add(prefix + operation);
            }
        }
        return rules;
    }

    /** Describe and Read on what it consumes and its groups, Describe and Write on what it produces. */
    private static Set<String> expectedAcls(KafkaUsage usage) {
        Set<String> rules = new TreeSet<>();
        usage.consumed().forEach(topic -> rules.addAll(List.of("topic:literal:" + topic + ":Describe",
                "topic:literal:" + topic + ":Read")));
        usage.produced().forEach(topic -> rules.addAll(List.of("topic:literal:" + topic + ":Describe",
                "topic:literal:" + topic + ":Write")));
        usage.groups().forEach(group -> rules.addAll(List.of("group:literal:" + group + ":Describe",
                "group:literal:" + group + ":Read")));
        usage.groupPrefixes().forEach(group -> rules.addAll(List.of("group:prefix:" + group + ":Describe",
                "group:prefix:" + group + ":Read")));
        usage.producedPrefixes().forEach(topic -> rules.addAll(List.of("topic:prefix:" + topic + ":Describe",
                "topic:prefix:" + topic + ":Write")));
        // a worker creates the run topics of its queues before it reads them
        usage.consumedPrefixes().forEach(topic -> rules.addAll(List.of("topic:prefix:" + topic + ":Describe",
                "topic:prefix:" + topic + ":Read", "topic:prefix:" + topic + ":Create")));
        return rules;
    }
}
