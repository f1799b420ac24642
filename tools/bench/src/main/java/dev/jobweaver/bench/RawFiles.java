package dev.jobweaver.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** The per-job raw figures as CSV and JSON, and the resource samples as CSV. */
public final class RawFiles {

    /** The CSV header of the per-job file. */
    public static final String JOBS_HEADER = "jobId,kind,submittedAt,createdAt,startedAt,finishedAt,visibleAt,status,"
            + "attempts,executions,acceptMs,submitToStartMs,submitToFinishMs,ingestedAt,dispatchedAt,visibleProbedAt,"
            + "finishToVisibleMs";
    /**
     * The columns added to {@link #JOBS_HEADER} when some job was sent with job control (priorities, delayed): what
     * was sent, what the platform recorded, the due time and the lateness. Left out otherwise, so the files of the
     * other workloads keep their columns.
     */
    public static final String CONTROL_HEADER = "priority,delayMs,recordedPriority,runAt,dueAt,latenessMs";

    private RawFiles() {
    }

    /** Whether some job of {@code jobs} was sent with job control, so its files have the control columns. */
    static boolean withControl(List<JobRecord> jobs) {
        return jobs.stream().anyMatch(j -> !Control.NONE.equals(j.control()));
    }

    /** One line per job, timestamps in ISO-8601 UTC, empty cells for missing values. */
    public static String jobsCsv(List<JobRecord> jobs) {
        boolean control = withControl(jobs);
        StringBuilder out = new StringBuilder(JOBS_HEADER);
        if (control) {
            out.append(',').append(CONTROL_HEADER);
        }
        out.append('\n');
        for (JobRecord j : jobs) {
            out.append(j.jobId()).append(',')
                    .append(j.kind().name().toLowerCase(Locale.ROOT)).append(',')
                    .append(iso(j.submittedAt())).append(',')
                    .append(iso(j.createdAt())).append(',')
                    .append(iso(j.startedAt())).append(',')
                    .append(iso(j.finishedAt())).append(',')
                    .append(iso(j.visibleAt())).append(',')
                    .append(csv(j.status())).append(',')
                    .append(j.attempts()).append(',')
                    .append(j.executions()).append(',')
                    .append(number(j.acceptMs())).append(',')
                    .append(number(j.submitToStartMs())).append(',')
                    .append(number(j.submitToFinishMs())).append(',')
                    .append(iso(j.ingestedAt())).append(',')
                    .append(iso(j.dispatchedAt())).append(',')
                    .append(iso(j.visibleProbedAt())).append(',')
                    .append(number(j.finishToVisibleMs()));
            if (control) {
                out.append(',').append(j.control().priority() == null ? "" : j.control().priority().name())
                        .append(',').append(j.control().hasDelay() ? Long.toString(j.control().delayMs()) : "")
                        .append(',').append(j.recordedPriority() == null ? "" : j.recordedPriority().name())
                        .append(',').append(iso(j.runAt()))
                        .append(',').append(iso(j.dueAt()))
                        .append(',').append(number(j.latenessMs()));
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** The same figures as a JSON array of objects (nulls for missing values). */
    public static ArrayNode jobsJson(ObjectMapper json, List<JobRecord> jobs) {
        ArrayNode array = json.createArrayNode();
        boolean control = withControl(jobs);
        for (JobRecord j : jobs) {
            ObjectNode o = array.addObject();
            o.put("jobId", j.jobId().toString());
            o.put("kind", j.kind().name().toLowerCase(Locale.ROOT));
            o.put("submittedAt", isoOrNull(j.submittedAt()));
            o.put("createdAt", isoOrNull(j.createdAt()));
            o.put("ingestedAt", isoOrNull(j.ingestedAt()));
            o.put("dispatchedAt", isoOrNull(j.dispatchedAt()));
            o.put("startedAt", isoOrNull(j.startedAt()));
            o.put("finishedAt", isoOrNull(j.finishedAt()));
            o.put("visibleAt", isoOrNull(j.visibleAt()));
            o.put("visibleProbedAt", isoOrNull(j.visibleProbedAt()));
            o.put("status", j.status());
            o.put("attempts", j.attempts());
            o.put("executions", j.executions());
            putNumber(o, "acceptMs", j.acceptMs());
            putNumber(o, "submitToStartMs", j.submitToStartMs());
            putNumber(o, "submitToFinishMs", j.submitToFinishMs());
            putNumber(o, "finishToVisibleMs", j.finishToVisibleMs());
            if (control) {
                o.put("priority", j.control().priority() == null ? null : j.control().priority().name());
                if (j.control().hasDelay()) {
                    o.put("delayMs", j.control().delayMs());
                } else {
                    o.putNull("delayMs");
                }
                o.put("recordedPriority", j.recordedPriority() == null ? null : j.recordedPriority().name());
                o.put("runAt", isoOrNull(j.runAt()));
                o.put("dueAt", isoOrNull(j.dueAt()));
                putNumber(o, "latenessMs", j.latenessMs());
            }
        }
        return array;
    }

    /**
     * One line per sample: time, process, RSS in kB, CPU percent of one core, and CPU seconds of the JVM's JIT and
     * GC threads since the previous sample (empty for a process that is not a JVM).
     */
    public static String resourcesCsv(List<ResourceSample> samples) {
        StringBuilder out = new StringBuilder("time,process,rssKb,cpuPercent,jitCpuSeconds,gcCpuSeconds\n");
        for (ResourceSample s : samples) {
            out.append(Instant.ofEpochMilli(s.epochMs())).append(',').append(csv(s.process())).append(',')
                    .append(s.rssKb()).append(',').append(number(s.cpuPercent())).append(',')
                    .append(number(s.jitCpuSeconds())).append(',').append(number(s.gcCpuSeconds())).append('\n');
        }
        return out.toString();
    }

    /** A JSON number, or null for NaN. */
    static void putNumber(ObjectNode o, String field, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            o.putNull(field);
        } else {
            o.put(field, Math.round(value * 1000) / 1000.0);
        }
    }

    private static String iso(Instant instant) {
        return instant == null ? "" : instant.toString();
    }

    private static String isoOrNull(Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static String number(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "" : String.format(Locale.ROOT, "%.3f", value);
    }

    /** Quotes a cell holding a comma, quote or line break (RFC 4180). */
    static String csv(String value) {
        if (value == null) {
            return "";
        }
        if (value.contains(",") || value.contains("\"") || value.contains("\n") || value.contains("\r")) {
            return '"' + value.replace("\"", "\"\"") + '"';
        }
        return value;
    }
}
