package dev.jobweaver.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * `./jobweaver bench`: runs the selected workloads against the platform `./jobweaver up` started, prints the
 * figures beside the targets ({@link Targets}) and writes the raw figures and an HTML report to a folder.
 *
 * <p>Exit status: 0 when every accepted job ended as expected (targets missed or not, they are reported, never
 * asserted), 1 when a job was lost, duplicated or ended unexpectedly or a workload failed, 2 for bad usage or a
 * platform that is not up.
 */
public final class Bench {

    /** How the resource tables name the bench's own JVM. */
    static final String SELF = "bench";

    private static final DateTimeFormatter FOLDER = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    private Bench() {
    }

    /**
     * Runs the bench ({@link BenchCommand} parses its command line); returns the exit status. A platform that is not
     * up throws an {@link IllegalStateException}.
     */
    static int run(BenchOptions options, PrintStream out) {
        java.util.logging.Logger.getLogger("org.postgresql").setLevel(java.util.logging.Level.SEVERE);
        PlatformState platform = PlatformState.load(options.home());
        requireAlive(platform, options.home());
        // the admin key: the figures include authentication, as every client of a secured platform pays it
        try (ApiClient api = new ApiClient(platform.apiUrl(), platform.apiKey(options.home()))) {
            if (!api.ready()) {
                throw new IllegalStateException("the platform is not up: " + platform.apiUrl()
                        + "/q/health/ready does not answer 200. Start it with `./jobweaver up`");
            }
            return run(options, platform, api, out);
        }
    }

    private static int run(BenchOptions options, PlatformState platform, ApiClient api, PrintStream out) {
        Instant startedAt = Instant.now();
        Path folder = options.out() != null ? options.out()
                : options.home().resolve("bench").resolve(FOLDER.format(startedAt));
        boolean terminal = System.console() != null && System.console().isTerminal();
        out.println("JobWeaver bench against " + platform.apiUrl() + ": "
                + String.join(", ", options.runs().stream().map(BenchOptions.Run::label).toList())
                + "; figures go to " + folder);
        Machine machine = Machine.probe();
        out.println("Machine: " + machine.describe());
        Map<String, Double> rssAtStart = rssMb(platform.instances());
        List<WorkloadResult> results = new ArrayList<>();
        Map<String, List<ResourceSummary>> byWorkload = new LinkedHashMap<>();
        Map<String, MachineCpu.Load> machineByWorkload = new LinkedHashMap<>();
        List<ResourceSample> samples;
        WarmUp warmUp;
        Map<BenchOptions.Run, StatementCosts> statements = new LinkedHashMap<>();
        Optional<StatementStats> statementStats = StatementStats.open(platform.postgresPort());
        boolean failed = false;
        try (PlatformDb db = new PlatformDb(platform.postgresPort());
             PlatformDb.TerminalReader probeDb = PlatformDb.terminalReader(platform.postgresPort());
             HttpClient scraper = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
             ResourceSampler sampler = new ResourceSampler(sampled(platform))) {
            WorkloadRunner runner = new WorkloadRunner(options, api, db, probeDb, platform,
                    () -> ReplicaShare.Snapshot.take(platform, url -> ReplicaShare.fetch(scraper, url)), out,
                    terminal);
            // delayed-idle alone submits nothing, so warm code would make no figure of it better
            boolean submits = options.runs().stream().anyMatch(r -> r.workload() != Workload.DELAYED_IDLE);
            if (submits) {
                out.println("Load generator warm-up: " + ClientWarmUp.run(options.concurrency(),
                        List.of(db::terminal, probeDb)).describe());
            }
            warmUp = !submits ? WarmUp.none()
                    : options.warmup() == BenchOptions.AUTO_WARMUP
                    ? WarmUp.adaptive(runner::warmUp, sampler::platformJitCpuSeconds)
                    : WarmUp.fixed(options.warmup(), runner::warmUp, sampler::platformJitCpuSeconds);
            out.println("Warm-up: " + warmUp.describe());
            sampler.start();
            for (BenchOptions.Run planned : options.runs()) {
                long from = System.currentTimeMillis();
                statementStats.ifPresent(StatementStats::reset);
                WorkloadResult result;
                try {
                    result = runner.run(planned);
                    statementStats.ifPresent(s -> statements.put(planned,
                            s.since(Instant.ofEpochMilli(from))));
                } catch (RuntimeException e) {
                    // one broken workload (say, a database error) must not cost the figures of the others
                    result = WorkloadResult.unavailable(planned, "failed: " + e.getMessage());
                    failed = true;
                }
                results.add(result);
                long to = System.currentTimeMillis();
                byWorkload.put(planned.label(), ResourceSummary.of(sampler.samples(), from, to));
                MachineCpu.Load load = MachineCpu.Load.of(sampler.machineReadings(), from, to);
                if (load.known()) {
                    machineByWorkload.put(planned.label(), load);
                }
                if (!result.available()) {
                    out.println(planned.label() + ": unavailable: " + result.note());
                }
            }
            samples = sampler.samples();
        } finally {
            statementStats.ifPresent(StatementStats::close);
        }
        List<ResourceSummary> resources = ResourceSummary.of(samples, Long.MIN_VALUE, Long.MAX_VALUE);
        Map<String, CpuPerJob> cpu = new LinkedHashMap<>();
        results.forEach(r -> cpu.put(r.label(), CpuPerJob.of(samples, r, machine.cpus())));
        BenchRun run = new BenchRun(startedAt, options, platform, List.copyOf(results),
                Targets.evaluate(results, options, platform, resources, cpu), resources, byWorkload, samples,
                machine, warmUp, rssAtStart, machineByWorkload);
        out.print(ConsoleReport.render(run));
        statements.forEach((planned, costs) -> out.print(costs.render(planned.label())));
        if (statementStats.isEmpty()) {
            out.println("\nNo SQL statements table: the platform's PostgreSQL keeps no statement statistics (start it"
                    + " with `./jobweaver up --sql-stats` for one)");
        }
        write(folder, run);
        writeStatements(folder, statements);
        out.println("\nRaw figures and report: " + folder + " (open report.html)");
        boolean correct = results.stream().allMatch(r -> !r.available() || r.correctness().ok());
        return correct && !failed ? 0 : 1;
    }

    /** The platform's processes plus this one, so the bench's own share of the machine is visible. */
    private static List<SampledProcess> sampled(PlatformState platform) {
        List<SampledProcess> all = new ArrayList<>(platform.sampledProcesses());
        all.add(new SampledProcess(SELF, ProcessHandle.current().pid(), false));
        return all;
    }

    /**
     * Each instance's RSS in MiB now, by name; an instance whose {@code /proc} entry cannot be read is left out. Read
     * before the warm-up, so that on a platform that ran nothing since {@code up} it is the idle RSS a comparison of
     * two runtimes shows.
     */
    static Map<String, Double> rssMb(List<PlatformState.Instance> instances) {
        Map<String, Double> rss = new LinkedHashMap<>();
        for (PlatformState.Instance instance : instances) {
            try {
                long kb = ProcStats.rssKb(Files.readString(Path.of("/proc", Long.toString(instance.pid()), "status")));
                if (kb >= 0) {
                    rss.put(instance.name(), kb / 1024.0);
                }
            } catch (IOException | RuntimeException e) {
                // a process gone or not readable has no figure; the report shows "-"
            }
        }
        return rss;
    }

    private static void requireAlive(PlatformState platform, Path home) {
        for (PlatformState.Instance instance : platform.instances()) {
            boolean alive = instance.pid() > 0 && ProcessHandle.of(instance.pid()).map(ProcessHandle::isAlive)
                    .orElse(false);
            if (!alive && instance.name().equals(PlatformState.API)) {
                throw new IllegalStateException("the platform is not up: " + instance.name() + " (pid "
                        + instance.pid() + ") is not running; " + home.resolve("platform.properties")
                        + " is left from an earlier run. Start it with `./jobweaver up`");
            }
        }
    }

    /** {@code <workload>-statements.csv} per workload that has statement figures. */
    static void writeStatements(Path folder, Map<BenchOptions.Run, StatementCosts> statements) {
        try {
            for (Map.Entry<BenchOptions.Run, StatementCosts> e : statements.entrySet()) {
                Files.writeString(folder.resolve(e.getKey().fileStem() + "-statements.csv"), e.getValue().csv());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the statements to " + folder + ": " + e.getMessage(), e);
        }
    }

    /** Writes every output file of {@code run} into {@code folder}. */
    static void write(Path folder, BenchRun run) {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        try {
            Files.createDirectories(folder);
            for (WorkloadResult r : run.results()) {
                if (r.available() && r.workflows() != null) {
                    Files.writeString(folder.resolve(r.fileStem() + "-runs.csv"), r.workflows().runsCsv());
                    Files.writeString(folder.resolve(r.fileStem() + "-jobs.csv"),
                            RawFiles.jobsCsv(r.workflows().nodeJobs()));
                }
                if (r.available() && r.limits() != null) {
                    Files.writeString(folder.resolve(r.fileStem() + "-binding-jobs.csv"),
                            RawFiles.jobsCsv(r.limits().jobs()));
                }
                if (!r.ranJobs()) {
                    continue;
                }
                String name = r.fileStem();
                Files.writeString(folder.resolve(name + "-jobs.csv"), RawFiles.jobsCsv(r.jobs()));
                json.writeValue(folder.resolve(name + "-jobs.json").toFile(), RawFiles.jobsJson(json, r.jobs()));
            }
            Files.writeString(folder.resolve("resources.csv"), RawFiles.resourcesCsv(run.samples()));
            json.writeValue(folder.resolve("summary.json").toFile(), SummaryJson.of(json, run));
            Files.writeString(folder.resolve("report.html"), HtmlReport.render(run));
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the figures to " + folder + ": " + e.getMessage(), e);
        }
    }
}
