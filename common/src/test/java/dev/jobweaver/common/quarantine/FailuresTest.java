package dev.jobweaver.common.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParseException;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.DatabaseException;
import java.io.IOException;
import java.net.ConnectException;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class FailuresTest {

    private static DatabaseException sql(String state) {
        return new DatabaseException("boom", 0, state, null) {
        };
    }

    @Test
    void dataAndConstraintErrorsOfTheDatabaseArePermanent() {
        assertThat(Failures.permanentReason(sql("22001"))).isEqualTo(QuarantineReason.REJECTED_BY_DATABASE);
        assertThat(Failures.permanentReason(sql("22008"))).isEqualTo(QuarantineReason.REJECTED_BY_DATABASE);
        assertThat(Failures.permanentReason(sql("23505"))).isEqualTo(QuarantineReason.REJECTED_BY_DATABASE);
        assertThat(Failures.permanentReason(new SQLException("x", "23514"))).isEqualTo(
                QuarantineReason.REJECTED_BY_DATABASE);
    }

    @Test
    void otherDatabaseErrorsAreTransient() {
        assertThat(Failures.isTransient(sql("40001"))).as("serialization failure").isTrue();
        assertThat(Failures.isTransient(sql("40P01"))).as("deadlock").isTrue();
        assertThat(Failures.isTransient(sql("08006"))).as("connection failure").isTrue();
        assertThat(Failures.isTransient(sql("57P01"))).as("admin shutdown").isTrue();
        assertThat(Failures.isTransient(sql("53300"))).as("too many connections").isTrue();
    }

    @Test
    void connectionAndTimeoutErrorsAreTransient() {
        assertThat(Failures.isTransient(new ConnectException("refused"))).isTrue();
        assertThat(Failures.isTransient(new TimeoutException())).isTrue();
        assertThat(Failures.isTransient(new VertxException("Connection is closed"))).isTrue();
        assertThat(Failures.isTransient(new IOException("reset"))).isTrue();
        assertThat(Failures.isTransient(new IllegalStateException("pool closed"))).isTrue();
    }

    @Test
    void parseValidationAndDataCausedRuntimeErrorsArePermanent() {
        assertThat(Failures.permanentReason(new JsonParseException(null, "bad"))).isEqualTo(
                QuarantineReason.UNREADABLE);
        assertThat(Failures.permanentReason(new InvalidRecordException("jobId is required"))).isEqualTo(
                QuarantineReason.INVALID);
        assertThat(Failures.permanentReason(new IllegalArgumentException())).isEqualTo(
                QuarantineReason.UNPROCESSABLE);
        assertThat(Failures.permanentReason(new DateTimeException("x"))).isEqualTo(QuarantineReason.UNPROCESSABLE);
        assertThat(Failures.permanentReason(new ArithmeticException())).isEqualTo(QuarantineReason.UNPROCESSABLE);
    }

    @Test
    void theCauseDecidesWhenTheFailureIsWrapped() {
        assertThat(Failures.permanentReason(new CompletionException(new RuntimeException(sql("22001")))))
                .isEqualTo(QuarantineReason.REJECTED_BY_DATABASE);
        assertThat(Failures.isTransient(new CompletionException(new ConnectException("refused")))).isTrue();
    }

    @Test
    void aCycleInTheCauseChainEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(Failures.isTransient(a)).isTrue();
    }

    @Test
    void describeGivesTheClassAndTheFirstLine() {
        assertThat(Failures.describe(new IllegalStateException("first\nsecond")))
                .isEqualTo("IllegalStateException: first");
        assertThat(Failures.describe(new NullPointerException())).isEqualTo("NullPointerException");
    }

    @Test
    void aClosedPoolIsToldApartWhereverItIsInTheCauseChainAndStaysTransient() {
        RuntimeException closed = new RuntimeException("Pool closed");

        assertThat(Failures.isPoolClosed(closed)).isTrue();
        assertThat(Failures.isPoolClosed(new IllegalStateException("wrapped", closed))).isTrue();
        assertThat(Failures.isPoolClosed(new RuntimeException("Connection refused"))).isFalse();
        assertThat(Failures.isTransient(closed)).isTrue();
    }
}
