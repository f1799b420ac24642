package dev.jobweaver.scheduler.observability;

import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * Logs a line about one job with {@code jobId} and {@code traceId} in the MDC.
 *
 * <p>Reactive code hops threads, so a thread-bound MDC set once per record would leak into other jobs' lines:
 * the keys are set around each line and the previous values restored.
 */
public final class JobLog {

    /** MDC key of the job id. */
    public static final String JOB_ID = "jobId";
    /** MDC key of the trace id (the same key OpenTelemetry uses). */
    public static final String TRACE_ID = "traceId";

    private JobLog() {
    }

    public static void info(Logger log, UUID jobId, String traceId, String format, Object... args) {
        write(log, Logger.Level.INFO, null, jobId, traceId, format, args);
    }

    public static void debug(Logger log, UUID jobId, String traceId, String format, Object... args) {
        if (log.isDebugEnabled()) {
            write(log, Logger.Level.DEBUG, null, jobId, traceId, format, args);
        }
    }

    public static void warn(Logger log, UUID jobId, String traceId, String format, Object... args) {
        write(log, Logger.Level.WARN, null, jobId, traceId, format, args);
    }

    public static void error(Logger log, Throwable failure, UUID jobId, String traceId, String format, Object... args) {
        write(log, Logger.Level.ERROR, failure, jobId, traceId, format, args);
    }

    private static void write(Logger log, Logger.Level level, Throwable failure, UUID jobId, String traceId,
                              String format, Object... args) {
        Object previousJob = MDC.get(JOB_ID);
        Object previousTrace = MDC.get(TRACE_ID);
        try {
            put(JOB_ID, jobId == null ? null : jobId.toString());
            put(TRACE_ID, traceId);
            log.logf(level, failure, format, args);
        } finally {
            put(JOB_ID, previousJob);
            put(TRACE_ID, previousTrace);
        }
    }

    private static void put(String key, Object value) {
        if (value == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, value);
        }
    }
}
