package dev.jobweaver.api.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.eclipse.microprofile.config.ConfigProvider;

/** A JDBC connection to the service's database, for tests that arrange or inspect rows directly. */
public final class Database {

    private Database() {
    }

    /** A new connection; close it. */
    public static Connection connect() throws SQLException {
        var config = ConfigProvider.getConfig();
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
    }
}
