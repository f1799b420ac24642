package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class PlatformDbTest {

    @Test
    void aMissingTablePointsAtTheServicesMigrations() {
        String message = PlatformDb.explain(new SQLException("ERROR: relation \"execution_attempts\" does not exist\n"
                + "  Position: 70", "42P01"));
        assertThat(message).isEqualTo("ERROR: relation \"execution_attempts\" does not exist (has the service that "
                + "owns this table started and run its Flyway migrations?)");
    }

    @Test
    void aMissingColumnSaysTheQueriesAreOutOfDate() {
        assertThat(PlatformDb.explain(new SQLException("ERROR: column \"started_at\" does not exist", "42703")))
                .endsWith("(the bench's queries no longer match the services' Flyway migrations)");
    }

    @Test
    void otherErrorsAreReportedAsTheyAre() {
        assertThat(PlatformDb.explain(new SQLException("connection refused", "08001")))
                .isEqualTo("querying the platform's PostgreSQL failed: connection refused");
    }
}
