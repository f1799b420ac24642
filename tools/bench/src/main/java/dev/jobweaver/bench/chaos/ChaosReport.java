package dev.jobweaver.bench.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The outcome of a chaos run: what was submitted and killed, and what became of every accepted job.
 *
 * @param settings what the run was asked to do
 * @param startedAt when the first job was submitted
 * @param sent submissions attempted, {@link Submitted#NOT_SENT} ones included
 * @param accepted answered 202 with a job id
 * @param unavailable answered 503 (the platform said it cannot take the job now)
 * @param otherStatus answered anything else
 * @param noAnswer no answer: connection refused or reset, or the request timed out
 * @param notSent not sent because {@link ChaosRun#MAX_IN_FLIGHT} requests were already waiting for an answer
 * @param firstRefusals the first refusal of each kind ({@code status 503}, {@code no answer}, {@code status 500},
 *                      ...) with its body or error, to tell a 503 from a bug without opening the logs
 * @param completed accepted jobs COMPLETED
 * @param failed accepted jobs FAILED (their retries exhausted)
 * @param rejected accepted jobs REJECTED: a job answered 202 is committed and must run, so any of them is a bug
 * @param lostJobs accepted jobs not terminal in the API at the end of the wait, or unknown to it
 * @param lostByState the lost jobs counted by where they stand ({@code API PENDING, scheduler COMPLETED})
 * @param duplicated accepted jobs a worker started more than once: {@code execution_attempts} has a row per attempt
 *                   (a redelivered record of the same attempt finds its row), so these ran in more than one attempt,
 *                   the scheduler having retried a run whose lease expired while a kill held up its outcome
 * @param mostRuns the most starts of one job
 * @param longestWait the longest time from acceptance to first start, or null when no job started
 * @param longestWaitJob the job that waited longest, or null
 * @param longestWaitSentAt when that job was submitted, in seconds since the run started (NaN when none)
 * @param p99Wait the 99th percentile of the same waits, or null
 * @param kills every kill, in order
 * @param settledAfter from the end of the submissions until every accepted job had ended, or null when they had
 *                     not all ended within the wait
 */
public record ChaosReport(ChaosRun.Settings settings, Instant startedAt, int sent, int accepted, int unavailable,
                          int otherStatus, int noAnswer, int notSent, Map<String, String> firstRefusals,
                          int completed, int failed, int rejected,
                          List<UUID> lostJobs, Map<String, Integer> lostByState, int duplicated, int mostRuns,
                          Duration longestWait, UUID longestWaitJob, double longestWaitSentAt, Duration p99Wait,
                          List<Kill> kills, Duration settledAfter) {

    /** Computes the report from the raw records of a run. */
    public static ChaosReport of(ChaosRun.Settings settings, Instant startedAt, Collection<Submitted> submissions,
                                 Map<UUID, JobState> states, List<Kill> kills, Duration settledAfter) {
        int accepted = 0;
        int unavailable = 0;
        int other = 0;
        int noAnswer = 0;
        int notSent = 0;
        int completed = 0;
        int failed = 0;
        int rejected = 0;
        int duplicated = 0;
        int mostRuns = 0;
        Map<String, Submitted> firstRefusals = new TreeMap<>();
        List<UUID> lost = new ArrayList<>();
        Map<String, Integer> lostByState = new TreeMap<>();
        List<Duration> waits = new ArrayList<>();
        Duration longest = null;
        UUID longestJob = null;
        double longestSentAt = Double.NaN;
        for (Submitted s : submissions) {
            if (!s.accepted()) {
                firstRefusals.merge(refusalKind(s.status()), s, (a, b) -> b.at().isBefore(a.at()) ? b : a);
                switch (s.status()) {
                    case 503 -> unavailable++;
                    case 0 -> noAnswer++;
                    case Submitted.NOT_SENT -> notSent++;
                    default -> other++;
                }
                continue;
            }
            accepted++;
            JobState state = states.get(s.jobId());
            if (state == null || !state.terminal()) {
                lost.add(s.jobId());
                lostByState.merge(describe(state), 1, Integer::sum);
            } else {
                switch (state.apiStatus()) {
                    case "COMPLETED" -> completed++;
                    case "FAILED" -> failed++;
                    default -> rejected++;
                }
            }
            if (state == null) {
                continue;
            }
            if (state.runs() > 1) {
                duplicated++;
            }
            mostRuns = Math.max(mostRuns, state.runs());
            if (state.acceptedAt() != null && state.firstStart() != null) {
                Duration wait = Duration.between(state.acceptedAt(), state.firstStart());
                waits.add(wait);
                if (longest == null || wait.compareTo(longest) > 0) {
                    longest = wait;
                    longestJob = s.jobId();
                    longestSentAt = Duration.between(startedAt, s.at()).toNanos() / 1e9;
                }
            }
        }
        Map<String, String> examples = new TreeMap<>();
        firstRefusals.forEach((kind, s) -> examples.put(kind, String.format(Locale.ROOT, "at %.1f s: %s",
                Duration.between(startedAt, s.at()).toNanos() / 1e9, s.detail())));
        return new ChaosReport(settings, startedAt, submissions.size(), accepted, unavailable, other, noAnswer,
                notSent, java.util.Collections.unmodifiableMap(examples), completed, failed, rejected,
                List.copyOf(lost), java.util.Collections.unmodifiableMap(lostByState), duplicated,
                mostRuns, longest, longestJob, longestSentAt, percentile(waits, 0.99), List.copyOf(kills),
                settledAfter);
    }

    /** How a refusal of {@code status} is named in the report. */
    static String refusalKind(int status) {
        return switch (status) {
            case 0 -> "no answer";
            case Submitted.NOT_SENT -> "not sent";
            default -> "status " + status;
        };
    }

    /** Where a lost job stands, in the words of the two services that track it. */
    static String describe(JobState state) {
        if (state == null || state.apiStatus() == null) {
            return "unknown to the API";
        }
        return "API " + state.apiStatus() + ", scheduler "
                + (state.schedulerStatus() == null ? "never took it in" : state.schedulerStatus());
    }

    /** The nearest-rank percentile {@code p} (0-1) of {@code values}, or null when there are none. */
    static Duration percentile(List<Duration> values, double p) {
        if (values.isEmpty()) {
            return null;
        }
        List<Duration> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.clamp(rank - 1, 0, sorted.size() - 1));
    }

    /** Accepted jobs that never ended within the wait or that the API does not know: must be 0. */
    public int lost() {
        return lostJobs.size();
    }

    /** Every submission that was not accepted. */
    public int refused() {
        return sent - accepted;
    }

    /** Kills per target, every target listed. */
    public Map<Target, Integer> killsPerTarget() {
        Map<Target, Integer> counts = new EnumMap<>(Target.class);
        for (Target t : Target.values()) {
            counts.put(t, 0);
        }
        kills.forEach(k -> counts.merge(k.target(), 1, Integer::sum));
        return counts;
    }

    /** Whether the run passed: no accepted job lost. */
    public boolean passed() {
        return lost() == 0;
    }

    /** The process exit status of `jobweaver chaos`: 0 when no accepted job was lost, else 1. */
    public int exitCode() {
        return passed() ? 0 : 1;
    }

    /** The summary block printed at the end of a run. */
    public List<String> summary() {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "Chaos run: %s at %s jobs/s, a kill every %s (seed %d)",
                human(settings.duration()), number(settings.rate()), human(settings.interval()), settings.seed()));
        StringBuilder perTarget = new StringBuilder();
        killsPerTarget().forEach((t, n) -> perTarget.append(perTarget.isEmpty() ? "" : ", ").append(t.label())
                .append(' ').append(n));
        long notBack = kills.stream().filter(k -> !k.cameBack()).count();
        Kill slowest = kills.stream().filter(Kill::cameBack)
                .max(java.util.Comparator.comparingDouble(Kill::backAfterSeconds)).orElse(null);
        lines.add(String.format(Locale.ROOT, "  kills         %d (%s); %s", kills.size(), perTarget,
                notBack > 0 ? notBack + " NOT back by the end"
                        : slowest == null ? "none" : String.format(Locale.ROOT,
                        "all back, the slowest %.1f s after its kill (%s at %.0f s)", slowest.backAfterSeconds(),
                        slowest.name(), slowest.atSeconds())));
        lines.add(String.format(Locale.ROOT, "  submitted     %,d", sent));
        lines.add(String.format(Locale.ROOT, "  accepted      %,d", accepted));
        lines.add(String.format(Locale.ROOT, "  refused       %,d (503: %,d; no answer: %,d; other status: %,d;"
                + " not sent, too many waiting: %,d)", refused(), unavailable, noAnswer, otherStatus, notSent));
        firstRefusals.forEach((kind, example) -> {
            if (!kind.equals("status 503") && !kind.equals("no answer") && !kind.equals("not sent")) {
                lines.add("                first " + kind + " " + example);
            }
        });
        lines.add(String.format(Locale.ROOT, "  completed     %,d", completed));
        lines.add(String.format(Locale.ROOT, "  failed        %,d%s", failed,
                rejected > 0 ? String.format(Locale.ROOT, "  (and %,d REJECTED after a 202: a bug)", rejected) : ""));
        lines.add(String.format(Locale.ROOT, "  lost          %,d%s", lost(), lost() == 0 ? "" : "  " + lostByState));
        lines.add(String.format(Locale.ROOT, "  duplicated    %,d job(s) started more than once%s", duplicated,
                duplicated > 0 ? " (at most " + mostRuns + " times: retried after a lease expired)" : ""));
        lines.add(longestWait == null ? "  longest wait  - (no job started)"
                : String.format(Locale.ROOT, "  longest wait  %.1f s from acceptance to first start (job %s, sent at"
                        + " %.0f s); p99 %.1f s", seconds(longestWait), longestWaitJob, longestWaitSentAt,
                seconds(p99Wait)));
        lines.add(settledAfter == null
                ? String.format(Locale.ROOT, "  settled       NO: %,d accepted job(s) had not ended %s after the"
                        + " submissions stopped", lost(), human(settings.waitForJobs()))
                : String.format(Locale.ROOT, "  settled       every accepted job had ended %.1f s after the"
                        + " submissions stopped", seconds(settledAfter)));
        if (!lostJobs.isEmpty()) {
            lines.add("  lost jobs     " + String.join(", ", lostJobs.stream().limit(10).map(UUID::toString).toList())
                    + (lostJobs.size() > 10 ? ", ... (all in the JSON report)" : ""));
        }
        lines.add(passed() ? "PASSED: no accepted job was lost" : "FAILED: " + lost() + " accepted job(s) lost");
        return lines;
    }

    /** The report as JSON (what {@code chaos-report.json} holds). */
    public String toJson() {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("passed", passed());
        root.put("startedAt", startedAt.toString());
        ObjectNode options = root.putObject("settings");
        options.put("durationMs", settings.duration().toMillis());
        options.put("rate", settings.rate());
        options.put("intervalMs", settings.interval().toMillis());
        options.put("seed", settings.seed());
        options.put("waitMs", settings.waitForJobs().toMillis());
        options.put("downMs", settings.down().toMillis());
        ObjectNode jobs = root.putObject("jobs");
        jobs.put("submitted", sent);
        jobs.put("accepted", accepted);
        jobs.put("refused", refused());
        ObjectNode refusals = jobs.putObject("refusedBy");
        refusals.put("status503", unavailable);
        refusals.put("noAnswer", noAnswer);
        refusals.put("otherStatus", otherStatus);
        refusals.put("notSent", notSent);
        ObjectNode first = jobs.putObject("firstRefusals");
        firstRefusals.forEach(first::put);
        jobs.put("completed", completed);
        jobs.put("failed", failed);
        jobs.put("rejectedAfterAcceptance", rejected);
        jobs.put("lost", lost());
        ObjectNode byState = jobs.putObject("lostByState");
        lostByState.forEach(byState::put);
        ArrayNode lostIds = jobs.putArray("lostJobs");
        lostJobs.forEach(id -> lostIds.add(id.toString()));
        jobs.put("duplicated", duplicated);
        jobs.put("mostRuns", mostRuns);
        if (longestWait != null) {
            jobs.put("longestWaitMs", longestWait.toMillis());
            jobs.put("longestWaitJob", longestWaitJob.toString());
            jobs.put("longestWaitSentAtSeconds", Math.round(longestWaitSentAt * 10) / 10.0);
            jobs.put("p99WaitMs", p99Wait.toMillis());
        }
        if (settledAfter != null) {
            jobs.put("settledAfterMs", settledAfter.toMillis());
        }
        ArrayNode killed = root.putArray("kills");
        for (Kill k : kills) {
            ObjectNode o = killed.addObject();
            o.put("target", k.target().label());
            o.put("process", k.name());
            o.put("pid", k.pid());
            o.put("atSeconds", Math.round(k.atSeconds() * 10) / 10.0);
            if (k.cameBack()) {
                o.put("backAfterSeconds", Math.round(k.backAfterSeconds() * 10) / 10.0);
            } else {
                o.putNull("backAfterSeconds");
            }
        }
        try {
            return mapper.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The figures in one line, as the end-to-end test prints them. */
    public String oneLine() {
        return String.format(Locale.ROOT, "%d kills (%s), %d submitted, %d accepted, %d refused (503: %d, no answer:"
                        + " %d, other: %d, not sent: %d), %d completed, %d failed, %d rejected after 202, lost: %d,"
                        + " duplicated: %d, longest wait %s s, p99 wait %s s, settled in %s s",
                kills.size(), killsPerTarget().entrySet().stream().map(e -> e.getKey().label() + " " + e.getValue())
                        .reduce((a, b) -> a + ", " + b).orElse(""),
                sent, accepted, refused(), unavailable, noAnswer, otherStatus, notSent, completed, failed, rejected,
                lost(), duplicated,
                longestWait == null ? "-" : String.format(Locale.ROOT, "%.1f", seconds(longestWait)),
                p99Wait == null ? "-" : String.format(Locale.ROOT, "%.1f", seconds(p99Wait)),
                settledAfter == null ? "-" : String.format(Locale.ROOT, "%.1f", seconds(settledAfter)));
    }

    static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }

    /** {@code 10m}, {@code 30s}, {@code 1m 30s}, {@code 500ms}. */
    static String human(Duration d) {
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        return s % 60 == 0 ? s / 60 + "m" : s / 60 + "m " + s % 60 + "s";
    }

    private static String number(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
