package dev.jobweaver.common.quarantine;

import com.fasterxml.jackson.core.JacksonException;
import io.vertx.sqlclient.DatabaseException;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides, from a failure's class alone, whether retrying the same record could ever succeed: the one place every
 * consumer of every service asks.
 *
 * <h2>Permanent</h2>
 * The record is quarantined and the partition moves on:
 * <ul>
 *   <li>parse errors (Jackson) and {@link InvalidRecordException}: the record is not what its topic carries;</li>
 *   <li>SQL state class {@code 22} (data exception: a value too long, out of range, an invalid timestamp) and
 *       {@code 23} (integrity constraint violation): the database will refuse the same data every time;</li>
 *   <li>runtime errors that data causes: {@link IllegalArgumentException}, {@link NullPointerException},
 *       {@link ClassCastException}, {@link ArithmeticException}, {@link IndexOutOfBoundsException},
 *       {@link DateTimeException}.</li>
 * </ul>
 *
 * <h2>Transient</h2>
 * Everything else: connection and timeout errors, other SQL states (serialization failures and deadlocks in class 40,
 * an unavailable server in 08, 53, 57, 58) and whatever is not listed above. A transient failure is retried with
 * backoff and never skips a record: a platform that waits for its database loses nothing, one that quarantined
 * during an outage would lose the order of its work.
 *
 * <p>The cause chain is searched, so a failure wrapped by Mutiny, Vert.x or Hibernate is classified by its cause; the
 * first classifiable failure in the chain decides.
 */
public final class Failures {

    /** The message of the Vert.x SQL client's failure of a pool that was closed. */
    static final String POOL_CLOSED = "Pool closed";

    private Failures() {
    }

    /** The reason to quarantine a record that failed with {@code failure}, or null if the failure is transient. */
    public static QuarantineReason permanentReason(Throwable failure) {
        for (Throwable t : causes(failure)) {
            if (t instanceof InvalidRecordException) {
                return QuarantineReason.INVALID;
            }
            if (t instanceof JacksonException) {
                return QuarantineReason.UNREADABLE;
            }
            String sqlState = sqlState(t);
            if (sqlState != null) {
                return sqlState.startsWith("22") || sqlState.startsWith("23")
                        ? QuarantineReason.REJECTED_BY_DATABASE : null;
            }
            if (t instanceof IllegalArgumentException || t instanceof NullPointerException
                    || t instanceof ClassCastException || t instanceof ArithmeticException
                    || t instanceof IndexOutOfBoundsException || t instanceof DateTimeException) {
                return QuarantineReason.UNPROCESSABLE;
            }
        }
        return null;
    }

    /** Whether retrying could cure {@code failure}. */
    public static boolean isTransient(Throwable failure) {
        return permanentReason(failure) == null;
    }

    /**
     * Whether {@code failure} says that the service's own database pool is closed: it stops, and no retry before the
     * process ends can succeed (the Vert.x SQL client's "Pool closed"). Still transient: the record is consumed again by
     * the next instance.
     */
    public static boolean isPoolClosed(Throwable failure) {
        return causes(failure).stream().anyMatch(t -> POOL_CLOSED.equals(t.getMessage()));
    }

    /** {@code failure} and its causes, outermost first, each once (a cycle in the chain ends it). */
    private static List<Throwable> causes(Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** The SQL state a database failure carries, or null. */
    static String sqlState(Throwable t) {
        if (t instanceof DatabaseException db) {
            return db.getSqlState();
        }
        if (t instanceof SQLException sql) {
            return sql.getSQLState();
        }
        return null;
    }

    /** A one-line description of {@code failure} for a log line or a header: its class and first message line. */
    public static String describe(Throwable failure) {
        String message = failure.getMessage();
        if (message == null) {
            return failure.getClass().getSimpleName();
        }
        int nl = message.indexOf('\n');
        return failure.getClass().getSimpleName() + ": " + (nl < 0 ? message : message.substring(0, nl));
    }
}
