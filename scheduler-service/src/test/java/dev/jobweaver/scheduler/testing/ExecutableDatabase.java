package dev.jobweaver.scheduler.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The database of the scheduler's native executable, over JDBC from the test's JVM: the executable's beans are out of
 * reach, so a test of it that must see a row reads it this way. The address is the test resource's, which Quarkus sets
 * as system properties in the test's JVM as it passes them to the executable.
 */
public final class ExecutableDatabase {

    private ExecutableDatabase() {
    }

    /** A new connection; the caller closes it. */
    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(System.getProperty("quarkus.datasource.jdbc.url"),
                System.getProperty("quarkus.datasource.username"), System.getProperty("quarkus.datasource.password"));
    }
}
