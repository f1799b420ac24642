package dev.jobweaver.bench;

import static dev.jobweaver.bench.Targets.fmt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The tables printed at the end of a run. */
public final class ConsoleReport {

    private ConsoleReport() {
    }

    /** One row per stage, one column per workload that has stage figures; null when none has. */
    static TextTable stagesTable(BenchRun run) {
        List<WorkloadResult> with = run.results().stream()
                .filter(r -> r.available() && !r.stages().isEmpty()).toList();
        if (with.isEmpty()) {
            return null;
        }
        String[] header = new String[with.size() + 1];
        header[0] = "stage";
        for (int i = 0; i < with.size(); i++) {
            header[i + 1] = with.get(i).label();
        }
        TextTable table = new TextTable(header);
        for (int s = 0; s < Stages.NAMES.size(); s++) {
            String[] row = new String[with.size() + 1];
            row[0] = Stages.NAMES.get(s);
            for (int i = 0; i < with.size(); i++) {
                Percentiles p = with.get(i).stages().get(s).millis();
                row[i + 1] = p.count() == 0 ? "-" : fmt(p.p50()) + " / " + fmt(p.p99());
            }
            table.row(row);
        }
        return table;
    }

    /**
     * One row per workload that completed jobs: CPU milliseconds per completed job by process, the platform's sum and
     * the ceiling that cost sets; null when no workload has a figure. The ceiling of steady and delayed is left out: at
     * an offered rate a job also pays for the platform's idle rounds, so its cost says nothing of what the cores
     * allow.
     */
    static TextTable cpuTable(BenchRun run) {
        List<Map.Entry<WorkloadResult, CpuPerJob>> measured = new ArrayList<>();
        run.results().forEach(r -> {
            CpuPerJob cpu = run.cpuPerJob(r);
            if (cpu.measured()) {
                measured.add(Map.entry(r, cpu));
            }
        });
        if (measured.isEmpty()) {
            return null;
        }
        List<String> processes = run.resources().stream().map(ResourceSummary::process).toList();
        List<String> header = new ArrayList<>();
        header.add("workload (ms/job)");
        header.addAll(processes);
        header.add("platform");
        header.add("ceiling jobs/s");
        TextTable table = new TextTable(header.toArray(String[]::new));
        measured.forEach(entry -> {
            WorkloadResult result = entry.getKey();
            CpuPerJob cpu = entry.getValue();
            List<String> row = new ArrayList<>();
            row.add(result.label());
            processes.forEach(p -> row.add(fmt(cpu.ms(p))));
            row.add(fmt(cpu.platformMs()));
            row.add(result.workload() == Workload.STEADY || result.workload() == Workload.DELAYED ? "-"
                    : fmt(cpu.ceilingJobsPerSecond()));
            table.row(row.toArray(String[]::new));
        });
        return table;
    }

    /**
     * One row per workload with readings of the machine: how busy its cores were and how much of their time the
     * hypervisor stole; null when none has.
     */
    static TextTable machineTable(BenchRun run) {
        if (run.machineByWorkload().isEmpty()) {
            return null;
        }
        TextTable table = new TextTable("workload", "cores busy %", "stolen %");
        run.results().forEach(r -> {
            MachineCpu.Load load = run.machineByWorkload().get(r.label());
            if (load != null) {
                table.row(r.label(), fmt(load.busyPercent()), fmt(load.stolenPercent()));
            }
        });
        return table;
    }

    /** {@code table} under {@code title}, after a blank line. */
    private static String titled(String title, TextTable table) {
        return "\n" + title + "\n" + table.render();
    }

    /** Workloads, latencies, stages, resources, targets; then unavailable workloads and correctness problems. */
    public static String render(BenchRun run) {
        StringBuilder out = new StringBuilder();
        TextTable workloads = new TextTable("workload", "accepted", "rejected", "completed", "jobs/s",
                "visible jobs/s", "no-op jobs/s", "lost", "duplicated", "unexpected");
        TextTable latency = new TextTable("workload (ms)", "submit-to-start p50", "p90", "p99", "max",
                "submit-to-completed p50", "p90", "p99", "max", "202 p50 / p99");
        StringBuilder notes = new StringBuilder();
        for (WorkloadResult r : run.results()) {
            String name = r.label();
            if (!r.available()) {
                workloads.row(name, "unavailable");
                notes.append("  ").append(name).append(" unavailable: ").append(r.note()).append('\n');
                continue;
            }
            if (r.idle() != null) {
                workloads.row(name, "idle CPU below");
                notes.append("  ").append(name).append(": ").append(r.note()).append('\n');
                continue;
            }
            if (r.schedules() != null || r.workflows() != null) {
                Correctness c = r.correctness();
                workloads.row(name, r.workflows() != null ? "runs below" : "ticks below", "", "", "", "", "",
                        Integer.toString(c.lost()), Integer.toString(c.duplicated()),
                        Integer.toString(c.unexpected()));
                notes.append("  ").append(name).append(": ").append(r.note()).append('\n');
                c.examples().forEach(e -> notes.append("  ").append(name).append(": ").append(e).append('\n'));
                continue;
            }
            Correctness c = r.correctness();
            int completed = (int) r.jobs().stream().filter(JobRecord::completed).count();
            workloads.row(name, Integer.toString(r.submission().accepted()),
                    Integer.toString(r.submission().rejected()), Integer.toString(completed), fmt(r.throughput()),
                    fmt(r.visibleThroughput()), fmt(r.noopThroughput()), Integer.toString(c.lost()), Integer.toString(c.duplicated()),
                    Integer.toString(c.unexpected()));
            latency.row(name, fmt(r.toStart().p50()), fmt(r.toStart().p90()), fmt(r.toStart().p99()),
                    fmt(r.toStart().max()), fmt(r.toFinish().p50()), fmt(r.toFinish().p90()), fmt(r.toFinish().p99()),
                    fmt(r.toFinish().max()), fmt(r.accept().p50()) + " / " + fmt(r.accept().p99()));
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
                "JIT cpu s", "GC cpu s", "ready s");
        for (ResourceSummary s : run.resources()) {
            long ready = run.platform().instances().stream().filter(i -> i.name().equals(s.process()))
                    .mapToLong(PlatformState.Instance::readyMs).findFirst().orElse(-1);
            resources.row(s.process(), fmt(s.maxRssMb()), fmt(s.meanRssMb()), fmt(s.meanCpuPercent()),
                    fmt(s.maxCpuPercent()), fmt(s.jitCpuSeconds()), fmt(s.gcCpuSeconds()),
                    ready < 0 ? "-" : fmt(ready / 1000.0));
        }
        TextTable stages = stagesTable(run);
        TextTable cpu = cpuTable(run);
        TextTable targets = new TextTable("target", "goal", "measured", "verdict");
        run.targets().forEach(t -> targets.row(t.target(), t.goal(), t.measured(), t.verdict()));
        out.append("\nMachine: ").append(run.machine().describe()).append('\n');
        out.append("Platform: ").append(run.platform().describe()).append('\n');
        out.append("Warm-up: ").append(run.warmUp().describe()).append('\n');
        out.append("\nWorkloads\n").append(workloads.render());
        TextTable sweep = ConcurrencySweep.table(ConcurrencySweep.of(run.results()));
        if (sweep != null) {
            out.append("\nBurst by concurrency (connections of the client, one request in flight on each)\n")
                    .append(sweep.render());
        }
        out.append("\nLatency, from the platform's recorded timestamps (ms)\n").append(latency.render());
        ReportSections.of(run.results(), run.options().baseline()).forEach(section -> section.tables()
                .forEach(t -> out.append(titled(t.caption(), t.table()))));
        if (stages != null) {
            out.append("\nWhere the time goes: p50 / p99 per stage (ms; jobs that ran once; the last stage over the")
                    .append(" jobs the freshness probe followed, to within ").append(FreshnessProbe.POLL_MS)
                    .append(" ms)\n")
                    .append(stages.render());
        }
        out.append("\nResources during the run (every second, from /proc; JIT and GC: CPU of the JVM's compiler and"
                + " collector threads)\n").append(resources.render());
        TextTable machine = machineTable(run);
        if (machine != null) {
            out.append("\nThe machine's cores during each workload (/proc/stat, all cores; stolen: time the hypervisor")
                    .append(" gave another guest, which no process's CPU shows but every hand-off waits for)\n")
                    .append(machine.render());
        }
        if (cpu != null) {
            out.append("\nCPU per completed job, first submission to last completion (ms of CPU; ceiling: jobs/s that")
                    .append(" cost allows on ").append(run.machine().cpus()).append(" cores, bench included)\n")
                    .append(cpu.render());
        }
        TextTable share = ReplicaShare.table(run.results());
        if (share != null) {
            out.append("\nShare per replica: each workload's count per instance and its share of all instances of ")
                    .append("its service (API and scheduler: the instance's /q/metrics counters; workers: ")
                    .append("execution_attempts.worker_id)\n").append(share.render());
        }
        out.append("\nTargets (reported, not asserted)\n").append(targets.render());
        if (!notes.isEmpty()) {
            out.append("\nNotes\n").append(notes);
        }
        return out.toString();
    }
}
