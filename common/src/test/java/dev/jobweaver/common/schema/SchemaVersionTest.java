package dev.jobweaver.common.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.jobweaver.common.schema.SchemaVersion.HistoryRow;
import dev.jobweaver.common.schema.SchemaVersion.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaVersionTest {

    private static SchemaVersion history(HistoryRow... rows) {
        return SchemaVersion.of("jobweaver_worker", List.of(rows));
    }

    @Test
    void theNewestSuccessfulVersionIsTheSchemasVersion() {
        SchemaVersion schema = history(new HistoryRow("1", true), new HistoryRow("2", true));

        assertThat(schema.applied()).contains("2");
        assertThat(schema.against("2").status()).isEqualTo(Status.CURRENT);
    }

    @Test
    void anOlderSchemaIsRefusedWithBothVersionsAndTheFix() {
        SchemaVersion.Verdict verdict = history(new HistoryRow("1", true)).against("2");

        assertThat(verdict.status()).isEqualTo(Status.NOT_MIGRATED);
        assertThat(verdict.message()).contains("jobweaver_worker", "version 1", "needs 2", "QUARKUS_DATASOURCE_JDBC_URL");
    }

    @Test
    void aDatabaseWithoutHistoryHasNoSchema() {
        SchemaVersion.Verdict verdict = SchemaVersion.empty("jobweaver_api").against("2");

        assertThat(verdict.status()).isEqualTo(Status.NOT_MIGRATED);
        assertThat(verdict.message()).contains("jobweaver_api has no schema yet", "needs version 2");
    }

    @Test
    void aFailedMigrationIsRefusedEvenWhenAnOlderOneSucceeded() {
        SchemaVersion.Verdict verdict = history(new HistoryRow("1", true), new HistoryRow("2", false)).against("2");

        assertThat(verdict.status()).isEqualTo(Status.NOT_MIGRATED);
        assertThat(verdict.message()).contains("failed migration to version 2", "flyway repair");
    }

    @Test
    void aNewerSchemaStartsWithAWarning() {
        SchemaVersion.Verdict verdict = history(new HistoryRow("3", true)).against("2");

        assertThat(verdict.status()).isEqualTo(Status.AHEAD);
        assertThat(verdict.message()).contains("version 3", "newer than this build's 2");
    }

    @Test
    void versionsCompareAsNumbersPartByPart() {
        assertThat(SchemaVersion.compare("10", "9")).isPositive();
        assertThat(SchemaVersion.compare("2.1", "2")).isPositive();
        assertThat(SchemaVersion.compare("2.0", "2")).isZero();
        assertThat(SchemaVersion.compare("1_5", "1.10")).isNegative();
        assertThat(history(new HistoryRow("9", true), new HistoryRow("10", true)).applied()).contains("10");
    }

    @Test
    void aVersionThatIsNotNumericIsNamed() {
        assertThatThrownBy(() -> SchemaVersion.compare("2a", "2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'2a'");
    }
}
