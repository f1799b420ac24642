package dev.jobweaver.bench;

import static dev.jobweaver.bench.SvgChart.escape;
import static dev.jobweaver.bench.Targets.fmt;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code report.html}: one self-contained page (inline CSS and SVG, no scripts) with the tables and charts. */
public final class HtmlReport {

    private HtmlReport() {
    }

    /** The page for {@code run}. */
    public static String render(BenchRun run) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>JobWeaver bench ")
                .append(escape(run.startedAt().toString())).append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}")
                .append("th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}th:first-child,td:first-child")
                .append("{text-align:left}.pass{color:#2a7d2a;font-weight:bold}.miss{color:#c62828;font-weight:bold}")
                .append(".na{color:#888}svg{display:block;margin:1em 0}\n</style></head><body>\n");
        html.append("<h1>JobWeaver benchmark</h1>\n<p>Started ").append(escape(run.startedAt().toString()))
                .append(" against ").append(escape(run.platform().apiUrl())).append(". Timings come from the ")
                .append("platform's recorded timestamps (jobweaver_api.jobs, jobweaver_worker.execution_attempts).</p>\n")
                .append("<p>Machine: ").append(escape(run.machine().describe())).append(".<br>Platform: ")
                .append(escape(run.platform().describe())).append(".<br>Warm-up: ")
                .append(escape(run.warmUp().describe())).append(".</p>\n");
        html.append("<h2>Targets</h2>\n<table><tr><th>target</th><th>goal</th><th>measured</th>")
                .append("<th>verdict</th></tr>\n");
        for (TargetRow t : run.targets()) {
            String cls = switch (t.verdict()) {
                case "pass" -> "pass";
                case "miss" -> "miss";
                default -> "na";
            };
            html.append("<tr><td>").append(escape(t.target())).append("</td><td>").append(escape(t.goal()))
                    .append("</td><td>").append(escape(t.measured())).append("</td><td class=\"").append(cls)
                    .append("\">").append(escape(t.verdict())).append("</td></tr>\n");
        }
        html.append("</table>\n");
        html.append("<h2>Workloads</h2>\n<table><tr><th>workload</th><th>accepted</th><th>rejected</th>")
                .append("<th>jobs/s</th><th>visible jobs/s</th><th>no-op jobs/s</th><th>start p50</th><th>start p90</th><th>start p99</th>")
                .append("<th>start max</th><th>completed p50</th><th>completed p99</th><th>correctness</th>")
                .append("<th>note</th></tr>\n");
        for (WorkloadResult r : run.results()) {
            html.append("<tr><td>").append(escape(r.label())).append("</td>");
            if (!r.available()) {
                html.append("<td colspan=\"12\" class=\"na\">unavailable</td><td>").append(escape(r.note()))
                        .append("</td></tr>\n");
                continue;
            }
            if (r.idle() != null) {
                html.append("<td colspan=\"12\" class=\"na\">idle CPU below</td><td>")
                        .append(escape(r.note())).append("</td></tr>\n");
                continue;
            }
            if (r.schedules() != null || r.workflows() != null) {
                html.append("<td colspan=\"11\" class=\"na\">").append(r.workflows() != null ? "runs" : "ticks")
                        .append(" below</td>");
                cells(html, r.correctness().summary(), r.note());
                html.append("</tr>\n");
                continue;
            }
            cells(html, Integer.toString(r.submission().accepted()), Integer.toString(r.submission().rejected()),
                    fmt(r.throughput()), fmt(r.visibleThroughput()), fmt(r.noopThroughput()), fmt(r.toStart().p50()), fmt(r.toStart().p90()),
                    fmt(r.toStart().p99()), fmt(r.toStart().max()), fmt(r.toFinish().p50()), fmt(r.toFinish().p99()),
                    r.correctness().summary(), r.note());
            html.append("</tr>\n");
        }
        html.append("</table>\n<p>Latencies in milliseconds: start = submit to the first attempt's start, ")
                .append("completed = submit to the terminal status.</p>\n");
        html.append(sweep(run));
        html.append(sections(run));
        html.append(stagesTable(run));
        html.append(latencyChart(run, false)).append(latencyChart(run, true));
        html.append(completionsChart(run));
        html.append("<h2>Resources</h2>\n<table><tr><th>process</th><th>RSS max MB</th><th>RSS mean MB</th>")
                .append("<th>CPU mean % of a core</th><th>CPU max %</th><th>JIT compiler CPU s</th>")
                .append("<th>garbage collector CPU s</th><th>start-to-ready s</th></tr>\n");
        for (ResourceSummary s : run.resources()) {
            long ready = run.platform().instances().stream().filter(i -> i.name().equals(s.process()))
                    .mapToLong(PlatformState.Instance::readyMs).findFirst().orElse(-1);
            html.append("<tr><td>").append(escape(s.process())).append("</td>");
            cells(html, fmt(s.maxRssMb()), fmt(s.meanRssMb()), fmt(s.meanCpuPercent()), fmt(s.maxCpuPercent()),
                    fmt(s.jitCpuSeconds()), fmt(s.gcCpuSeconds()), ready < 0 ? "-" : fmt(ready / 1000.0));
            html.append("</tr>\n");
        }
        html.append("</table>\n").append(rssChart(run));
        TextTable machine = ConsoleReport.machineTable(run);
        if (machine != null) {
            html.append("<h2>The machine's cores</h2>\n<p>During each workload, from <code>/proc/stat</code> over ")
                    .append("all cores: the share of their time spent running anything, and the share the ")
                    .append("hypervisor gave another guest (stolen), which no process's CPU shows but every ")
                    .append("hand-off between them waits for.</p>\n").append(table(machine));
        }
        TextTable cpu = ConsoleReport.cpuTable(run);
        if (cpu != null) {
            html.append("<h2>CPU per completed job</h2>\n<p>Milliseconds of CPU per completed job, from the first ")
                    .append("submission to the last completion; ceiling: the jobs per second that cost allows on ")
                    .append(run.machine().cpus()).append(" cores, the bench included (none for steady and delayed, ")
                    .append("whose jobs also pay for idle rounds).</p>\n").append(table(cpu));
        }
        TextTable share = ReplicaShare.table(run.results());
        if (share != null) {
            html.append("<h2>Share per replica</h2>\n<p>Each workload's count per instance and its share of all ")
                    .append("instances of its service: API and scheduler from the growth of each instance's ")
                    .append("<code>/q/metrics</code> counters over the workload, workers from ")
                    .append("<code>execution_attempts.worker_id</code>.</p>\n").append(table(share));
        }
        html.append("<p>Raw figures: one CSV and one JSON file per workload (one row per job), resources.csv, ")
                .append("summary.json, in this folder.</p>\n</body></html>\n");
        return html.toString();
    }

    /** The burst at each concurrency: a table and, for two or more, the charts. */
    private static String sweep(BenchRun run) {
        List<ConcurrencySweep.Row> rows = ConcurrencySweep.of(run.results());
        TextTable table = ConcurrencySweep.table(rows);
        if (table == null) {
            return "";
        }
        StringBuilder html = new StringBuilder("<h2>Burst by concurrency</h2>\n<p>One burst per value of ")
                .append("<code>--concurrency</code>: the client's connections, one request in flight on each. ")
                .append("POST = how long <code>POST /api/jobs</code> took to answer 202; start = submit to the ")
                .append("first attempt's start; milliseconds.</p>\n");
        return html.append(table(table)).append(ConcurrencySweep.charts(rows)).toString();
    }

    /** The job-control and feature sections, each table under its caption and HTML note. */
    private static String sections(BenchRun run) {
        StringBuilder html = new StringBuilder();
        for (ReportSections.Section section : ReportSections.of(run.results(), run.options().baseline())) {
            html.append("<h2>").append(section.heading()).append("</h2>\n");
            section.tables().forEach(t -> html.append("<p>").append(escape(t.caption())).append(t.htmlNote())
                    .append("</p>\n").append(table(t.table())));
        }
        return html.toString();
    }

    /** {@code table} as an HTML table. */
    private static String table(TextTable table) {
        StringBuilder html = new StringBuilder("<table><tr>");
        table.header().forEach(h -> html.append("<th>").append(escape(h)).append("</th>"));
        html.append("</tr>\n");
        for (List<String> row : table.rows()) {
            html.append("<tr>");
            cells(html, row.toArray(String[]::new));
            html.append("</tr>\n");
        }
        return html.append("</table>\n").toString();
    }

    private static String stagesTable(BenchRun run) {
        List<WorkloadResult> with = run.results().stream().filter(r -> r.available() && !r.stages().isEmpty())
                .toList();
        if (with.isEmpty()) {
            return "";
        }
        StringBuilder html = new StringBuilder("<h2>Where the time goes</h2>\n<p>p50 / p99 in milliseconds per stage, ")
                .append("over the jobs that ran exactly once; the last stage over the jobs the freshness probe ")
                .append("followed (looked up every ").append(FreshnessProbe.POLL_MS)
                .append(" ms).</p>\n<table><tr><th>stage</th>");
        with.forEach(r -> html.append("<th>").append(escape(r.label())).append("</th>"));
        html.append("</tr>\n");
        for (int s = 0; s < Stages.NAMES.size(); s++) {
            html.append("<tr><td>").append(escape(Stages.NAMES.get(s))).append("</td>");
            for (WorkloadResult r : with) {
                Percentiles p = r.stages().get(s).millis();
                html.append("<td>").append(p.count() == 0 ? "-" : fmt(p.p50()) + " / " + fmt(p.p99())).append("</td>");
            }
            html.append("</tr>\n");
        }
        return html.append("</table>\n").toString();
    }

    private static void cells(StringBuilder html, String... values) {
        for (String v : values) {
            html.append("<td>").append(escape(v)).append("</td>");
        }
    }

    private static String latencyChart(BenchRun run, boolean completed) {
        List<SvgChart.Series> series = new ArrayList<>();
        for (WorkloadResult r : run.results()) {
            Percentiles p = completed ? r.toFinish() : r.toStart();
            if (r.available() && p.count() > 0) {
                series.add(new SvgChart.Series(r.label(), new double[] {0, 1, 2, 3},
                        new double[] {p.p50(), p.p90(), p.p99(), p.max()}));
            }
        }
        if (series.isEmpty()) {
            return "";
        }
        List<String> categories = List.of("p50", "p90", "p99", "max");
        if (completed) {
            return SvgChart.bars("Submit to completed, percentiles", "milliseconds", categories, series);
        }
        return SvgChart.bars("Submit to start, percentiles", "milliseconds", categories, series,
                Targets.STEADY_P99_START_MS, "steady p99 target " + fmt(Targets.STEADY_P99_START_MS) + " ms");
    }

    private static String completionsChart(BenchRun run) {
        List<SvgChart.Series> series = new ArrayList<>();
        for (WorkloadResult r : run.results()) {
            int[] perSecond = r.completionsPerSecond();
            if (!r.available() || perSecond.length == 0) {
                continue;
            }
            double[] xs = new double[perSecond.length];
            double[] ys = new double[perSecond.length];
            for (int i = 0; i < perSecond.length; i++) {
                xs[i] = i;
                ys[i] = perSecond[i];
            }
            series.add(new SvgChart.Series(r.label(), xs, ys));
        }
        if (series.isEmpty()) {
            return "";
        }
        return SvgChart.lines("Completions over time", "seconds after the workload's first submit",
                "completed jobs per second", series);
    }

    private static String rssChart(BenchRun run) {
        if (run.samples().isEmpty()) {
            return "";
        }
        long origin = run.samples().getFirst().epochMs();
        Map<String, List<ResourceSample>> byProcess = new LinkedHashMap<>();
        run.samples().forEach(s -> byProcess.computeIfAbsent(s.process(), p -> new ArrayList<>()).add(s));
        List<SvgChart.Series> series = new ArrayList<>();
        byProcess.forEach((process, list) -> {
            double[] xs = new double[list.size()];
            double[] ys = new double[list.size()];
            for (int i = 0; i < list.size(); i++) {
                xs[i] = (list.get(i).epochMs() - origin) / 1000.0;
                ys[i] = list.get(i).rssKb() / 1024.0;
            }
            series.add(new SvgChart.Series(process, xs, ys));
        });
        return SvgChart.lines("RSS over the run", "seconds", "MB", series, Targets.RSS_MB,
                "service target " + fmt(Targets.RSS_MB) + " MB");
    }
}
