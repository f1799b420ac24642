package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading a service's /q/metrics as Prometheus would. */
class PrometheusTextTest {

    private static final String SCRAPE = """
            # HELP jobweaver_jobs_dispatched_total Attempts dispatched to run-job
            # TYPE jobweaver_jobs_dispatched_total counter
            jobweaver_jobs_dispatched_total 20412.0
            # TYPE jobweaver_status_events_total counter
            jobweaver_status_events_total{result="applied"} 40000.0
            jobweaver_status_events_total{result="stale"} 12.0
            jobweaver_quarantined_total{reason="unreadable",topic="job-status"} 0.0
            http_server_requests_seconds_count{status="202",uri="/api/jobs"} 3.0 # {span_id="ab"} 0.002 1.7e9
            odd_label{path="a \\"quoted\\" \\\\ value, with comma"} 1e3 1700000000000
            jobweaver_jobs_pending NaN
            bucket{le="+Inf"} +Inf

            broken{unterminated="x 1
            no_value
            """;

    @Test
    void everySampleWithItsLabelsAndValue() {
        List<PrometheusText.Sample> samples = PrometheusText.parse(SCRAPE);
        assertThat(samples).as("not the unterminated label nor the line without a value").hasSize(8);
        assertThat(samples.getFirst()).isEqualTo(new PrometheusText.Sample("jobweaver_jobs_dispatched_total",
                Map.of(), 20412.0));
        assertThat(samples.get(1).labels()).containsExactly(Map.entry("result", "applied"));
        assertThat(samples.get(3).labels()).containsExactly(Map.entry("reason", "unreadable"),
                Map.entry("topic", "job-status"));
        assertThat(samples.get(4).value()).as("an exemplar after the value is not the value").isEqualTo(3.0);
        assertThat(samples.get(5).labels().get("path")).isEqualTo("a \"quoted\" \\ value, with comma");
        assertThat(samples.get(5).value()).as("the timestamp is not the value").isEqualTo(1000.0);
        assertThat(samples.get(6).value()).isNaN();
        assertThat(samples.get(7).value()).isInfinite();
    }

    @Test
    void aSumOverTheSamplesThatHaveTheLabelsAskedFor() {
        List<PrometheusText.Sample> samples = PrometheusText.parse(SCRAPE);
        assertThat(PrometheusText.sum(samples, "jobweaver_status_events_total", Map.of("result", "applied")))
                .isEqualTo(40000.0);
        assertThat(PrometheusText.sum(samples, "jobweaver_status_events_total", Map.of())).isEqualTo(40012.0);
        assertThat(PrometheusText.sum(samples, "jobweaver_jobs_dispatched_total", Map.of())).isEqualTo(20412.0);
        assertThat(PrometheusText.sum(samples, "jobweaver_jobs_ingested_total", Map.of())).as("absent").isNaN();
        assertThat(PrometheusText.sum(samples, "jobweaver_status_events_total", Map.of("result", "lost"))).isNaN();
    }
}
