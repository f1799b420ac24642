package dev.jobweaver.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.jobweaver.common.metrics.StoreSizes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The monitoring component (PrometheusRule, ServiceMonitor, Grafana dashboard) renders on top of prod; every alert is
 * complete; every expression parses as PromQL; the metric names used are the list the end-to-end test checks.
 */
class MonitoringTest {

    static final Path COMPONENT = Overlay.k8sDir().resolve("components/monitoring");
    /** Every metric name the rules and the dashboard use; MetricsExposedIT checks each is served by a service. */
    static final Path METRIC_NAMES = COMPONENT.resolve("metric-names.txt");
    static final Set<String> ALERTS = Set.of("JobWeaverBacklogHigh", "JobWeaverJobsWaitingLong", "JobWeaverNoProgress",
            "JobWeaverDeadLetters", "JobWeaverErrorRateHigh", "JobWeaverConsumerLagGrowing",
            "JobWeaverQueueWithoutWorkers", "JobWeaverQuarantinedRecords", "JobWeaverWebhookDeliveriesGivenUp",
            "JobWeaverCommittedOffsetStuck", "JobWeaverTableGrowing", "JobWeaverTableSizeForecast");
    /**
     * The metrics each alert of the platform's trouble reads, exactly: a renamed metric, or an expression that reads
     * another, fails here before it silences the alert.
     */
    static final Map<String, Set<String>> ALERT_METRICS = Map.of(
            "JobWeaverQuarantinedRecords", Set.of("jobweaver_quarantine_records_kept"),
            "JobWeaverCommittedOffsetStuck", Set.of("jobweaver_worker_committed_offset_lag",
                    "jobweaver_worker_committed_offset"),
            "JobWeaverWebhookDeliveriesGivenUp", Set.of("jobweaver_webhook_deliveries_total"),
            "JobWeaverJobsWaitingLong", Set.of("jobweaver_jobs_pending_oldest_age_seconds"),
            "JobWeaverTableGrowing", Set.of("jobweaver_store_table_bytes", "jobweaver_store_index_bytes"),
            "JobWeaverTableSizeForecast", Set.of("jobweaver_store_table_bytes", "jobweaver_store_index_bytes"));
    private static final Pattern DURATION = Pattern.compile("([0-9]+(ms|s|m|h|d|w|y))+");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static List<JsonNode> rendered;

    /** prod with the component, rendered through a kustomization of its own (a Component does not render alone). */
    static synchronized List<JsonNode> rendered() throws IOException {
        if (rendered == null) {
            List<JsonNode> objects = new ArrayList<>();
            try (MappingIterator<JsonNode> it = new YAMLMapper().readerFor(JsonNode.class)
                    .readValues(Overlay.prodWith("monitoring", "namespace: jobweaver\n"))) {
                it.forEachRemaining(objects::add);
            }
            rendered = objects;
        }
        return rendered;
    }

    static JsonNode one(String kind, String name) throws IOException {
        return rendered().stream().filter(o -> o.path("kind").asText().equals(kind)
                && o.path("metadata").path("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    static List<JsonNode> rules() throws IOException {
        List<JsonNode> rules = new ArrayList<>();
        one("PrometheusRule", "jobweaver").path("spec").path("groups")
                .forEach(group -> group.path("rules").forEach(rules::add));
        return rules;
    }

    static JsonNode dashboard() throws IOException {
        JsonNode map = one("ConfigMap", "jobweaver-grafana-dashboard");
        return JSON.readTree(map.path("data").path("jobweaver.json").asText());
    }

    /** Every expression of the rules and the dashboard, by where it is. */
    static Map<String, String> expressions() throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        for (JsonNode rule : rules()) {
            all.put("alert " + rule.path("alert").asText(), rule.path("expr").asText());
        }
        for (JsonNode panel : dashboard().path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                all.put("panel '" + panel.path("title").asText() + "' " + target.path("refId").asText(),
                        target.path("expr").asText());
            }
        }
        return all;
    }

    @Test
    void theRuleTheMonitorAndTheDashboardRenderInTheNamespaceOfTheOverlay() throws IOException {
        assertThat(one("PrometheusRule", "jobweaver").path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
        assertThat(one("PrometheusRule", "jobweaver").path("metadata").path("namespace").asText()).isEqualTo("jobweaver");
        JsonNode map = one("ConfigMap", "jobweaver-grafana-dashboard");
        assertThat(map.path("metadata").path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
        assertThat(dashboard().path("panels").size()).isGreaterThanOrEqualTo(6);
        assertThat(one("ServiceMonitor", "jobweaver").path("metadata").path("namespace").asText())
                .isEqualTo("jobweaver");
        for (JsonNode object : rendered()) {
            assertThat(object.path("metadata").path("labels").path("app.kubernetes.io/part-of").asText())
                    .as("part-of of %s %s", object.path("kind").asText(), object.path("metadata").path("name").asText())
                    .isEqualTo("jobweaver");
        }
    }

    @Test
    void theBaseAndTheOverlaysStayPlainKubernetes() {
        for (Overlay overlay : Overlay.values()) {
            assertThat(overlay.yaml()).as(overlay.relativePath()).doesNotContain("monitoring.coreos.com");
        }
    }

    @Test
    void theServiceMonitorSelectsTheThreeServicesOnTheirMetricsPort() throws IOException {
        JsonNode monitor = one("ServiceMonitor", "jobweaver");
        JsonNode expression = monitor.path("spec").path("selector").path("matchExpressions").get(0);
        assertThat(expression.path("key").asText()).isEqualTo("app.kubernetes.io/name");
        Set<String> selected = new TreeSet<>();
        expression.path("values").forEach(v -> selected.add(v.asText()));
        assertThat(selected).isEqualTo(Overlay.SERVICES.keySet());
        JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
        assertThat(endpoint.path("path").asText()).isEqualTo("/q/metrics");
        for (String service : Overlay.SERVICES.keySet()) {
            JsonNode ports = one("Service", service).path("spec").path("ports");
            assertThat(ports.findValuesAsText("name")).as(service).contains(endpoint.path("port").asText());
        }
    }

    @Test
    void everyAlertHasAnExpressionADurationASeverityAndItsAnnotations() throws IOException {
        Set<String> names = new TreeSet<>();
        for (JsonNode rule : rules()) {
            String name = rule.path("alert").asText();
            names.add(name);
            assertThat(rule.path("expr").asText()).as("expr of %s", name).isNotBlank();
            assertThat(rule.path("for").asText()).as("for of %s", name).matches(DURATION);
            assertThat(rule.path("labels").path("severity").asText()).as("severity of %s", name)
                    .isIn("critical", "warning", "info");
            assertThat(rule.path("annotations").path("summary").asText()).as("summary of %s", name).isNotBlank();
            assertThat(rule.path("annotations").path("description").asText()).as("description of %s", name)
                    .isNotBlank();
            assertThat(rule.path("annotations").path("runbook_url").asText()).as("runbook of %s", name)
                    .isEqualTo("docs/operations.md#" + name.toLowerCase(Locale.ROOT));
        }
        assertThat(names).isEqualTo(ALERTS);
    }

    @Test
    void everyRunbookAnchorIsAHeadingOfTheOperationsGuide() throws IOException {
        Set<String> anchors = new TreeSet<>();
        for (String line : Files.readAllLines(Overlay.repoDir().resolve("docs/operations.md"))) {
            if (line.startsWith("#")) {
                anchors.add(line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "")
                        .replace(' ', '-'));
            }
        }
        for (JsonNode rule : rules()) {
            String url = rule.path("annotations").path("runbook_url").asText();
            assertThat(anchors).as("the heading %s points at", url).contains(url.substring(url.indexOf('#') + 1));
        }
    }

    @Test
    void everyExpressionOfTheRulesAndTheDashboardIsValidPromQl() throws IOException {
        List<PromQl.Result> results = PromQl.check(expressions());
        assertThat(results).hasSize(expressions().size());
        for (PromQl.Result result : results) {
            assertThat(result.errors()).as("%s: %s", result.id(), result.expr()).isEmpty();
            assertThat(result.metrics()).as("metrics of %s", result.id()).isNotEmpty();
        }
    }

    @Test
    void eachAlertOfThePlatformsTroubleReadsItsMetric() throws IOException {
        Map<String, String> alerts = new LinkedHashMap<>();
        for (JsonNode rule : rules()) {
            if (ALERT_METRICS.containsKey(rule.path("alert").asText())) {
                alerts.put(rule.path("alert").asText(), rule.path("expr").asText());
            }
        }
        assertThat(alerts.keySet()).isEqualTo(ALERT_METRICS.keySet());
        for (PromQl.Result result : PromQl.check(alerts)) {
            assertThat(result.errors()).as("%s: %s", result.id(), result.expr()).isEmpty();
            assertThat(new TreeSet<>(result.metrics())).as("metrics %s reads", result.id())
                    .isEqualTo(new TreeSet<>(ALERT_METRICS.get(result.id())));
        }
        // the given-up deliveries only, not every delivery's outcome
        assertThat(alerts.get("JobWeaverWebhookDeliveriesGivenUp")).contains("outcome=\"given-up\"");
    }

    @Test
    void theStoreAlertsReadTheGaugesTheServicesRegisterPerTableOfEachService() throws IOException {
        // the names the API and the scheduler register (Micrometer's dots as underscores; "bytes" is their unit)
        Set<String> registered = Set.of(StoreSizes.TABLE.replace('.', '_'), StoreSizes.INDEX.replace('.', '_'));
        for (String alert : List.of("JobWeaverTableGrowing", "JobWeaverTableSizeForecast")) {
            assertThat(ALERT_METRICS.get(alert)).as(alert).isEqualTo(registered);
            String expr = rules().stream().filter(rule -> rule.path("alert").asText().equals(alert)).findFirst()
                    .orElseThrow().path("expr").asText();
            // every replica of a service reports the same figures, and two services may have a table of one name
            assertThat(expr).as(alert).contains("max by (namespace, job, table)")
                    .doesNotContain("sum(", "sum by");
        }
    }

    @Test
    void theCheckerRejectsBrokenExpressions() {
        assertThat(PromQl.check("sum(rate(jobweaver_jobs_completed_total[5m])").errors()).isNotEmpty();
        assertThat(PromQl.check("rate(jobweaver_jobs_completed_total)").errors()).isNotEmpty();
        assertThat(PromQl.check("sum(jobweaver_jobs_completed_total[5m])").errors()).isNotEmpty();
        assertThat(PromQl.check("no_such_function(jobweaver_jobs_pending)").errors()).isNotEmpty();
        assertThat(PromQl.check("rate(x[5q])").errors()).isNotEmpty();
        assertThat(PromQl.check("x{a=\"b\"} > on() y").errors()).isEmpty();
    }

    @Test
    void theMetricNamesUsedAreTheCommittedListTheEndToEndTestChecks() throws IOException {
        Set<String> used = new TreeSet<>();
        PromQl.check(expressions()).forEach(r -> used.addAll(r.metrics()));
        List<String> listed = Files.readAllLines(METRIC_NAMES).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertThat(listed).as("%s (sorted, one a line); the names used are %s", METRIC_NAMES, used)
                .containsExactlyElementsOf(used);
    }

    @Test
    void everyJobWeaverMetricUsedIsDocumented() throws IOException {
        String operations = Files.readString(Overlay.repoDir().resolve("docs/operations.md"));
        Pattern histogram = Pattern.compile("(.+)_(bucket|count|sum)$");
        for (String name : Files.readAllLines(METRIC_NAMES)) {
            if (!name.startsWith("jobweaver_")) {
                continue;
            }
            Matcher m = histogram.matcher(name);
            String documented = m.matches() && !operations.contains("`" + name) ? m.group(1) : name;
            assertThat(operations).as("docs/operations.md names %s", documented).contains("`" + documented);
        }
    }
}
