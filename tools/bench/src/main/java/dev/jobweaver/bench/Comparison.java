package dev.jobweaver.bench;

import static dev.jobweaver.bench.Targets.fmt;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Bench runs side by side, one column per run: a table of the runs' platforms, one per workload any of them ran (in
 * the order they ran it), and one of the targets' verdicts. A row is a figure; a run without it shows {@code -}.
 */
final class Comparison {

    /** The figures of a workload that have a row of their own above, so the generic rows leave them out. */
    private static final Set<String> NAMED = Set.of("workload", "label", "concurrency", "available", "note",
            "submission", "throughputJobsPerSecond", "visibleThroughputJobsPerSecond", "noopThroughputJobsPerSecond",
            "acceptMs", "submitToStartMs", "submitToCompletedMs", "finishToVisibleMs", "stagesMs", "correctness",
            "completionsPerSecond", "resources", "cpuPerJobMs", "replicaShare");

    /** The fields that name an element of an array, the first one present is its name in a row. */
    private static final List<String> ELEMENT_NAMES = List.of("stage", "priority", "group", "process", "replica");

    /** Of a percentiles object, the figures a comparison shows. */
    private static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "max");

    /** Of a stage, whose percentiles come six at a time, the figures a comparison shows. */
    private static final List<String> STAGE_PERCENTILES = List.of("p50", "p99");

    private Comparison() {
    }

    /** The tables of {@code runs}, in their order, each after a blank line and its title. */
    static String render(List<RunSummary> runs) {
        List<String> header = new ArrayList<>();
        header.add("figure");
        runs.forEach(run -> header.add(run.title()));
        StringBuilder out = new StringBuilder();
        Rows platform = new Rows(runs.size());
        for (int i = 0; i < runs.size(); i++) {
            platform(runs.get(i).root(), platform.of(i));
        }
        out.append(platform.render("Platforms", header));
        for (String label : labels(runs)) {
            Rows rows = new Rows(runs.size());
            for (int i = 0; i < runs.size(); i++) {
                JsonNode workload = workload(runs.get(i).root(), label);
                if (workload != null) {
                    workload(workload, rows.of(i));
                }
            }
            out.append(rows.render("Workload " + label, header));
        }
        Rows targets = new Rows(runs.size());
        for (int i = 0; i < runs.size(); i++) {
            BiConsumer<String, String> column = targets.of(i);
            runs.get(i).root().path("targets").forEach(t -> column.accept(t.path("target").asText(),
                    text(t.path("verdict"))));
        }
        out.append(targets.render("Targets (verdicts; reported, not asserted)", header));
        return out.toString();
    }

    /** Every workload label of {@code runs}: the first run's in its order, then those only later runs have. */
    static List<String> labels(List<RunSummary> runs) {
        Set<String> labels = new LinkedHashSet<>();
        runs.forEach(run -> run.root().path("workloads").forEach(w -> labels.add(w.path("label").asText())));
        return List.copyOf(labels);
    }

    private static JsonNode workload(JsonNode root, String label) {
        for (JsonNode w : root.path("workloads")) {
            if (w.path("label").asText().equals(label)) {
                return w;
            }
        }
        return null;
    }

    /** The figures of the whole run: runtime, machine, options that set the load, per instance ready and RSS. */
    private static void platform(JsonNode root, BiConsumer<String, String> row) {
        row.accept("runtime", text(root.path("platform").path("runtime")));
        JsonNode machine = root.path("machine");
        row.accept("machine", machine.has("cpuModel")
                ? machine.path("cpuModel").asText() + ", " + machine.path("cpus").asText() + " CPUs" : null);
        row.accept("memory latency ns", number(machine.path("memoryLatencyNs")));
        JsonNode options = root.path("options");
        row.accept("--jobs", number(options.path("jobs")));
        List<String> concurrencies = new ArrayList<>();
        options.path("concurrencies").forEach(c -> concurrencies.add(c.asText()));
        row.accept("--concurrency", concurrencies.isEmpty() ? null : String.join(",", concurrencies));
        row.accept("--rate", number(options.path("rate")));
        row.accept("--duration ms", number(options.path("durationMs")));
        row.accept("warm-up jobs", number(root.path("warmUp").path("jobs")));
        for (JsonNode instance : root.path("platform").path("instances")) {
            row.accept("ready ms " + instance.path("name").asText(), number(instance.path("readyMs")));
        }
        for (JsonNode instance : root.path("platform").path("instances")) {
            row.accept("RSS at start MiB " + instance.path("name").asText(), number(instance.path("rssAtStartMb")));
        }
        resources(root.path("resources"), " over the run", row);
    }

    /** The figures of one workload: those every workload has by name, then its own ones by their path. */
    private static void workload(JsonNode w, BiConsumer<String, String> row) {
        row.accept("available", text(w.path("available")));
        row.accept("note", w.path("note").asText("").isBlank() ? null : w.path("note").asText());
        JsonNode submission = w.path("submission");
        row.accept("jobs offered", number(submission.path("offered")));
        row.accept("jobs accepted", number(submission.path("accepted")));
        row.accept("throughput jobs/s", number(w.path("throughputJobsPerSecond")));
        row.accept("visible throughput jobs/s", number(w.path("visibleThroughputJobsPerSecond")));
        row.accept("no-op throughput jobs/s", number(w.path("noopThroughputJobsPerSecond")));
        row.accept("correctness", verdict(w.path("correctness")));
        JsonNode cpu = w.path("cpuPerJobMs");
        row.accept("CPU ms/job platform", number(cpu.path("platform")));
        cpu.path("byProcess").properties().forEach(p -> row.accept("CPU ms/job " + p.getKey(), number(p.getValue())));
        row.accept("CPU ms/job bench", number(cpu.path("bench")));
        row.accept("CPU ceiling jobs/s", number(cpu.path("ceilingJobsPerSecond")));
        resources(w.path("resources"), "", row);
        percentiles("202 answer ms", w.path("acceptMs"), row);
        percentiles("submit to start ms", w.path("submitToStartMs"), row);
        percentiles("submit to completed ms", w.path("submitToCompletedMs"), row);
        percentiles("finish to visible ms", w.path("finishToVisibleMs"), row);
        for (JsonNode stage : w.path("stagesMs")) {
            String name = "stage " + stage.path("stage").asText() + " ms ";
            STAGE_PERCENTILES.forEach(q -> row.accept(name + q, number(stage.path(q))));
        }
        for (JsonNode share : w.path("replicaShare")) {
            row.accept("share of " + share.path("replica").asText(), number(share.path("share")));
        }
        w.properties().forEach(p -> {
            if (!NAMED.contains(p.getKey())) {
                generic(p.getKey(), p.getValue(), row);
            }
        });
    }

    /** RSS max and mean CPU per process; {@code over} says of which window. */
    private static void resources(JsonNode resources, String over, BiConsumer<String, String> row) {
        for (JsonNode r : resources) {
            row.accept("RSS max MiB" + over + " " + r.path("process").asText(), number(r.path("maxRssMb")));
        }
        for (JsonNode r : resources) {
            row.accept("CPU % mean" + over + " " + r.path("process").asText(), number(r.path("meanCpuPercent")));
        }
    }

    private static void percentiles(String name, JsonNode p, BiConsumer<String, String> row) {
        PERCENTILES.forEach(q -> row.accept(name + " " + q, number(p.path(q))));
    }

    /**
     * Every number and yes/no under {@code node}, named by its path: a workload's own figures (idle CPU, schedules,
     * workflow, priorities, lateness, cancel, notify, limits) without a row written for each.
     */
    private static void generic(String path, JsonNode node, BiConsumer<String, String> row) {
        if (node.isObject()) {
            if (node.has("p50")) {
                percentiles(path, node, row);
                return;
            }
            node.properties().forEach(p -> generic(path + "." + p.getKey(), p.getValue(), row));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                JsonNode element = node.get(i);
                String name = ELEMENT_NAMES.stream().filter(element::hasNonNull).findFirst()
                        .map(f -> element.get(f).asText()).orElse(Integer.toString(i));
                generic(path + "[" + name + "]", element, row);
            }
        } else if (node.isNumber() || node.isBoolean()) {
            row.accept(path, node.isNumber() ? number(node) : text(node));
        }
    }

    /** {@code all 2000 as expected}, or how many ended otherwise and how; null without correctness figures. */
    static String verdict(JsonNode c) {
        if (!c.has("accepted")) {
            return null;
        }
        List<String> wrong = new ArrayList<>();
        for (String outcome : List.of("lost", "duplicated", "unexpected")) {
            long n = c.path(outcome).asLong();
            if (n > 0) {
                wrong.add(n + " " + outcome);
            }
        }
        return wrong.isEmpty() ? "all " + c.path("accepted").asLong() + " as expected"
                : c.path("asExpected").asLong() + " of " + c.path("accepted").asLong() + " as expected, "
                        + String.join(", ", wrong);
    }

    /** A number as the bench's tables print it; null when the field is absent or null. */
    private static String number(JsonNode n) {
        return n.isNumber() ? fmt(n.doubleValue()) : null;
    }

    /** A value as text, yes or no for a boolean; null when the field is absent or null. */
    private static String text(JsonNode n) {
        if (n.isMissingNode() || n.isNull()) {
            return null;
        }
        return n.isBoolean() ? (n.booleanValue() ? "yes" : "no") : n.asText();
    }

    /** The rows of one table, filled one run's column at a time; a row appears once any run has its figure. */
    private static final class Rows {

        private final int runs;
        private final Map<String, String[]> rows = new LinkedHashMap<>();

        Rows(int runs) {
            this.runs = runs;
        }

        /** What adds the figures of run {@code column}; a null value adds nothing. */
        BiConsumer<String, String> of(int column) {
            return (name, value) -> {
                if (value != null) {
                    rows.computeIfAbsent(name, k -> new String[runs])[column] = value;
                }
            };
        }

        /** The table under {@code title} after a blank line; empty when no run has a figure. */
        String render(String title, List<String> header) {
            if (rows.isEmpty()) {
                return "";
            }
            TextTable table = new TextTable(header.toArray(String[]::new));
            rows.forEach((name, cells) -> {
                String[] row = new String[runs + 1];
                row[0] = name;
                for (int i = 0; i < runs; i++) {
                    row[i + 1] = cells[i] == null ? "-" : cells[i];
                }
                table.row(row);
            });
            return "\n" + title + "\n" + table.render();
        }
    }
}
