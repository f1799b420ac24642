package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementCostsTest {

    private static final StatementCosts COSTS = new StatementCosts(List.of(
            new StatementCosts.Row("jobweaver_worker", "COMMIT", 400, 0, 20.0, 0),
            new StatementCosts.Row("jobweaver_api", "INSERT INTO jobs (id, status)\n   VALUES ($1, $2)", 1000, 1000,
                    150.0, 512_000),
            new StatementCosts.Row("jobweaver_api", "UPDATE jobs SET status = $1 WHERE id = $2", 2000, 1500, 50.0,
                    256_000)), 1000);

    @Test
    void statementsAreCostliestFirstAndCountedPerStoredJob() {
        assertThat(COSTS.rows()).extracting(StatementCosts.Row::execMs).containsExactly(150.0, 50.0, 20.0);
        StatementCosts.Row update = COSTS.rows().get(1);
        assertThat(COSTS.callsPerJob(update)).isEqualTo(2.0);
        assertThat(COSTS.execMicrosPerJob(update)).isEqualTo(50.0);
    }

    @Test
    void eachDatabaseSumsItsStatements() {
        assertThat(COSTS.byDatabase()).containsExactly(
                new StatementCosts.Row("jobweaver_api", "2", 3000, 2500, 200.0, 768_000),
                new StatementCosts.Row("jobweaver_worker", "1", 400, 0, 20.0, 0));
    }

    @Test
    void withoutJobsNothingIsPerJob() {
        StatementCosts none = new StatementCosts(COSTS.rows(), 0);
        assertThat(none.callsPerJob(none.rows().getFirst())).isNaN();
        assertThat(none.render("steady")).contains("0 jobs stored").contains(" - ");
    }

    @Test
    void theConsoleTableNamesEachStatementOnOneLine() {
        String table = COSTS.render("burst");
        assertThat(table).contains("SQL statements of burst per job (1000 jobs stored")
                .contains("INSERT INTO jobs (id, status) VALUES ($1, $2)")
                .containsPattern("api\\s+2\\s+0\\.75\\s+50\\s+25\\s+UPDATE")
                .containsPattern("worker\\s+1\\s+0\\.40\\s+20\\s+0\\n");
    }

    @Test
    void theCsvHasEveryStatementWithItsTextQuoted() {
        assertThat(COSTS.csv().lines()).hasSize(4)
                .element(1).isEqualTo("jobweaver_api,1000,1000,150.000,512000,1.0000,150.00,"
                        + "\"INSERT INTO jobs (id, status) VALUES ($1, $2)\"");
    }

    @Test
    void longStatementsAreCut() {
        assertThat(StatementCosts.oneLine("SELECT " + "x, ".repeat(50) + "y FROM t", 20)).hasSize(20).endsWith("...");
        assertThat(StatementCosts.shortName("jobweaver_scheduler")).isEqualTo("scheduler");
        assertThat(StatementCosts.shortName("postgres")).isEqualTo("postgres");
    }
}
