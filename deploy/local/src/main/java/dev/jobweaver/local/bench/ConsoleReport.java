package dev.jobweaver.local.bench;

import static dev.jobweaver.local.bench.Targets.fmt;

/** The tables printed at the end of a run. */
public final class ConsoleReport {

    private ConsoleReport() {
    }

    /** Workloads, latencies, resources, targets; then the unavailable workloads and correctness problems. */
    public static String render(BenchRun run) {
        StringBuilder out = new StringBuilder();
        TextTable workloads = new TextTable("workload", "accepted", "rejected", "completed", "jobs/s", "no-op jobs/s",
                "lost", "duplicated", "unexpected");
        TextTable latency = new TextTable("workload (ms)", "submit-to-start p50", "p90", "p99", "max",
                "submit-to-completed p50", "p90", "p99", "max", "202 p99");
        StringBuilder notes = new StringBuilder();
        for (WorkloadResult r : run.results()) {
            String name = r.workload().cliName();
            if (!r.available()) {
                workloads.row(name, "unavailable");
                notes.append("  ").append(name).append(" unavailable: ").append(r.note()).append('\n');
                continue;
            }
            Correctness c = r.correctness();
            int completed = (int) r.jobs().stream().filter(JobRecord::completed).count();
            workloads.row(name, Integer.toString(r.submission().accepted()),
                    Integer.toString(r.submission().rejected()), Integer.toString(completed), fmt(r.throughput()),
                    fmt(r.noopThroughput()), Integer.toString(c.lost()), Integer.toString(c.duplicated()),
                    Integer.toString(c.unexpected()));
            latency.row(name, fmt(r.toStart().p50()), fmt(r.toStart().p90()), fmt(r.toStart().p99()),
                    fmt(r.toStart().max()), fmt(r.toFinish().p50()), fmt(r.toFinish().p90()), fmt(r.toFinish().p99()),
                    fmt(r.toFinish().max()), fmt(r.accept().p99()));
            if (!r.note().isEmpty()) {
                notes.append("  ").append(name).append(": ").append(r.note()).append('\n');
            }
            if (r.submission().firstRejection() != null) {
                notes.append("  ").append(name).append(": first rejection: ").append(r.submission().firstRejection())
                        .append('\n');
            }
            c.examples().forEach(e -> notes.append("  ").append(name).append(": ").append(e).append('\n'));
        }
        TextTable resources = new TextTable("process", "RSS max MB", "RSS mean MB", "CPU mean %", "CPU max %",
                "ready s");
        for (ResourceSummary s : run.resources()) {
            long ready = run.platform().instances().stream().filter(i -> i.name().equals(s.process()))
                    .mapToLong(PlatformState.Instance::readyMs).findFirst().orElse(-1);
            resources.row(s.process(), fmt(s.maxRssMb()), fmt(s.meanRssMb()), fmt(s.meanCpuPercent()),
                    fmt(s.maxCpuPercent()), ready < 0 ? "-" : fmt(ready / 1000.0));
        }
        TextTable targets = new TextTable("target", "goal", "measured", "verdict");
        run.targets().forEach(t -> targets.row(t.target(), t.goal(), t.measured(), t.verdict()));
        out.append("\nWorkloads\n").append(workloads.render());
        out.append("\nLatency, from the platform's recorded timestamps (ms)\n").append(latency.render());
        out.append("\nResources during the run (every second, from /proc)\n").append(resources.render());
        out.append("\nTargets of issue 7 (reported, not asserted)\n").append(targets.render());
        if (!notes.isEmpty()) {
            out.append("\nNotes\n").append(notes);
        }
        return out.toString();
    }
}
