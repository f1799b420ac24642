package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextTableTest {

    @Test
    void padsColumnsAndRightAlignsNumbers() {
        String table = new TextTable("name", "jobs/s").row("burst", "2100").row("sleepers", "95.5").render();
        assertThat(table).isEqualTo("""
                name      jobs/s
                --------  ------
                burst       2100
                sleepers    95.5
                """);
    }

    @Test
    void aCountWithItsShareIsRightAlignedToo() {
        String table = new TextTable("replica", "burst").row("worker-service", "6667 (33.3%)")
                .row("worker-service-2", "13333 (66.7%)").render();
        assertThat(table).isEqualTo("""
                replica           burst
                ----------------  -------------
                worker-service     6667 (33.3%)
                worker-service-2  13333 (66.7%)
                """);
    }

    @Test
    void aTitleWithLineBreaksTakesOneLineEachAlignedAtTheTop() {
        String table = new TextTable("figure", "JVM\n2026-01-01 00:00:00Z", "native").row("jobs/s", "1214", "1780")
                .render();
        assertThat(table).isEqualTo("""
                figure  JVM                   native
                        2026-01-01 00:00:00Z
                ------  --------------------  ------
                jobs/s                  1214    1780
                """);
    }

    @Test
    void missingCellsAreEmptyAndExtraCellsRefused() {
        assertThat(new TextTable("a", "b").row("x").render()).endsWith("x\n");
        assertThatThrownBy(() -> new TextTable("a").row("1", "2")).isInstanceOf(IllegalArgumentException.class);
    }
}
