package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.local.JobWeaverLocal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import picocli.CommandLine;

/** Builders of records for the bench's unit tests, and the checks of a target row they share. */
final class Fixtures {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private Fixtures() {
    }

    /**
     * A job submitted at T0 + submitMs that started and finished at the given offsets, as expected; the watcher and
     * the freshness probe saw it finished 2 ms after its finish.
     */
    static JobRecord completed(JobKind kind, long submitMs, long startMs, long finishMs) {
        return new JobRecord(UUID.randomUUID(), kind, at(submitMs), 5.0, at(submitMs + 1), at(submitMs + 2),
                at(submitMs + 3), at(startMs), at(finishMs), at(finishMs + 2), at(finishMs + 2), "COMPLETED",
                kind.expectedAttempts(), kind.expectedAttempts());
    }

    /** {@code job} answered 202 after {@code acceptMs}. */
    static JobRecord accepted(JobRecord job, double acceptMs) {
        return new JobRecord(job.jobId(), job.kind(), job.submittedAt(), acceptMs, job.createdAt(), job.ingestedAt(),
                job.dispatchedAt(), job.startedAt(), job.finishedAt(), job.visibleAt(), job.visibleProbedAt(),
                job.status(), job.attempts(), job.executions());
    }

    /** A job with the given end state. */
    static JobRecord ended(JobKind kind, String status, int attempts, int executions) {
        return new JobRecord(UUID.randomUUID(), kind, T0, 5.0, T0, null, null,
                status == null ? null : T0.plusMillis(10),
                status == null ? null : T0.plusMillis(20), T0, null, status, attempts, executions);
    }

    static Instant at(long ms) {
        return T0.plus(Duration.ofMillis(ms));
    }

    static Submission submission(int accepted) {
        return new Submission(accepted, accepted, 0, null, T0, 1.0, 0);
    }

    /**
     * A bench run of {@code results} with the options {@code options} on the fixture platform and a two-core machine,
     * its targets evaluated; no replica share, no samples, no warm-up.
     */
    static BenchRun run(BenchOptions options, List<WorkloadResult> results) {
        return run(options, results, platform(), Map.of());
    }

    /** {@link #run(BenchOptions, List)} on {@code platform}, whose instances had {@code rssAtStartMb}. */
    static BenchRun run(BenchOptions options, List<WorkloadResult> results, PlatformState platform,
                        Map<String, Double> rssAtStartMb) {
        return new BenchRun(T0, options, platform, results,
                Targets.evaluate(results, options, platform, List.of()), List.of(), Map.of(), List.of(),
                new Machine("AMD EPYC", 2, 153.4), WarmUp.none(), rssAtStartMb);
    }

    /**
     * Runs {@code jobweaver args} as the launcher would, its relative paths against {@code cwd}; the command's output
     * goes to {@code out}, its errors to {@code err}. Returns the exit status.
     */
    static int execute(Path cwd, ByteArrayOutputStream out, StringWriter err, String... args) {
        CommandLine commandLine = JobWeaverLocal.commandLine(cwd, new PrintStream(out, true));
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    /** {@link #run(BenchOptions, List)} with the options {@code jobweaver bench} takes from {@code args}. */
    static BenchRun run(List<String> args, WorkloadResult... results) {
        return run(BenchOptions.parse(args, Path.of("/r")), List.of(results));
    }

    /** The names of the files {@link Bench#write} puts into {@code out} for {@code run}, sorted. */
    static List<String> written(Path out, BenchRun run) throws IOException {
        Bench.write(out, run);
        try (var files = Files.list(out)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** The row of {@code run}'s targets named {@code name}. */
    static TargetRow target(BenchRun run, String name) {
        return run.targets().stream().filter(t -> t.target().equals(name)).findFirst().orElseThrow();
    }

    /** Asserts that {@code row} has the verdict {@code verdict} and reads {@code measured}. */
    static void assertRow(TargetRow row, String verdict, String measured) {
        assertThat(row.verdict()).isEqualTo(verdict);
        assertThat(row.measured()).isEqualTo(measured);
    }

    /** A burst at concurrency 64 whose every submitted job was accepted and ended as {@code jobs}; no note. */
    static WorkloadResult burst(List<JobRecord> jobs) {
        return WorkloadResult.of(new BenchOptions.Run(Workload.BURST, 64, "burst"), submission(jobs.size()), jobs, "");
    }

    static PlatformState platform() {
        return new PlatformState("http://localhost:8080", 5432, 99, 98, List.of(
                new PlatformState.Instance("api-service", "http://localhost:8080", 10, 2500),
                new PlatformState.Instance("scheduler-service", "http://localhost:8081", 11, 3500),
                new PlatformState.Instance("worker-service", "http://localhost:8082", 12, -1)));
    }
}
