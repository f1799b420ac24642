package dev.jobweaver.worker.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.jboss.logmanager.ExtLogRecord;

/**
 * What the jobs' LOG steps write under {@code jobweaver.job} while a test listens: from {@link #listen()} (in its
 * {@code @BeforeEach}, or {@link #listening()} in a try-with-resources) until {@link #close()}. Records arrive on the
 * worker's threads, hence a thread-safe list, each with the MDC it had when it was logged.
 */
public final class JobLog extends Handler implements AutoCloseable {

    private static final String CATEGORY = "jobweaver.job";

    private final List<ExtLogRecord> records = new CopyOnWriteArrayList<>();

    /** A log that is recording already. */
    public static JobLog listening() {
        JobLog log = new JobLog();
        log.listen();
        return log;
    }

    /** Starts recording. */
    public void listen() {
        Logger.getLogger(CATEGORY).addHandler(this);
    }

    /** Every record so far, in the order they were logged. */
    public List<ExtLogRecord> records() {
        return records;
    }

    /** Every record's message, unformatted. */
    public List<String> messages() {
        return records.stream().map(LogRecord::getMessage).toList();
    }

    @Override
    public void publish(LogRecord record) {
        // Copy the MDC now: the record may be reused or its thread's MDC cleared once the step returns.
        ExtLogRecord ext = ExtLogRecord.wrap(record);
        ext.copyMdc();
        records.add(ext);
    }

    @Override
    public void flush() {
    }

    /** Stops recording. */
    @Override
    public void close() {
        Logger.getLogger(CATEGORY).removeHandler(this);
    }
}
