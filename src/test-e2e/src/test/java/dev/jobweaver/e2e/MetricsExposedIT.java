package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.ServiceProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every metric the Kubernetes alert rules and the Grafana dashboard use (deploy/k8s/components/monitoring, listed in
 * its metric-names.txt, which the manifest tests keep exact) is served at {@code /q/metrics} by a running service.
 */
@HealthyPlatform
class MetricsExposedIT {

    private static final Set<String> HISTOGRAM_SUFFIXES = Set.of("_bucket", "_count", "_sum");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyMetricOfTheAlertRulesAndTheDashboardIsExposedBySomeService() throws Exception {
        List<String> used = metricNamesUsed();
        assertThat(used).as("metric names in metric-names.txt").hasSizeGreaterThan(5);
        // Counters with labels appear with their first increment: one job that completes and one that fails, is
        // retried once and dead-lettered make the per-outcome and per-cause series exist.
        JobWeaverClient api = E2ePlatform.api();
        UUID done = api.submitAccepted(Jobs.noop());
        UUID failed = api.submitAccepted(Jobs.failing("metrics check", 1));
        api.awaitAll(List.of(done, failed), JobWeaverClient::terminal, Duration.ofSeconds(60));

        Set<String> missing = new TreeSet<>(used);
        Set<String> exposed = new TreeSet<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        // Gauges refresh on timers and consumer client metrics appear after the first fetch: poll for a while.
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            exposed = exposedNames();
            Set<String> now = exposed;
            missing.removeIf(name -> isExposed(name, now));
            if (!missing.isEmpty()) {
                E2ePlatform.awaitQuietly(2_000);
            }
        }
        assertThat(missing).as("metrics used by deploy/k8s/components/monitoring that no service exposes").isEmpty();
        // The check sees a name that is not there as missing.
        assertThat(isExposed("jobweaver_no_such_metric_total", exposed)).isFalse();
    }

    private static boolean isExposed(String name, Set<String> exposed) {
        if (exposed.contains(name)) {
            return true;
        }
        // A histogram or summary used by its base name is exposed through its suffixed series.
        return HISTOGRAM_SUFFIXES.stream().anyMatch(suffix -> exposed.contains(name + suffix));
    }

    private static List<String> metricNamesUsed() throws IOException {
        Path root = Path.of(System.getProperty("jobweaver.root", "../..")).toAbsolutePath().normalize();
        return Files.readAllLines(root.resolve("deploy/k8s/components/monitoring/metric-names.txt")).stream()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    /** The sample names every instance of every service exposes now. */
    private Set<String> exposedNames() throws IOException, InterruptedException {
        Set<String> names = new TreeSet<>();
        for (Service service : Service.values()) {
            for (ServiceProcess instance : E2ePlatform.get().instances(service)) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(instance.url() + "/q/metrics"))
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).as("/q/metrics of %s", instance.spec().name()).isEqualTo(200);
                for (String line : response.body().split("\n")) {
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    int end = 0;
                    while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                        end++;
                    }
                    names.add(line.substring(0, end));
                }
            }
        }
        return names;
    }
}
