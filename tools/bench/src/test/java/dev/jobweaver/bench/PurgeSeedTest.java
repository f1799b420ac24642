package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The purge workload's seed: its chunks, its tenant, and statements that fit the services' migrations. */
class PurgeSeedTest {

    @Test
    void aMillionJobsAreTenTransactionsOfAHundredThousand() {
        List<PurgeSeed.Chunk> chunks = PurgeSeed.chunks(1_000_000, PurgeSeed.CHUNK);
        assertThat(chunks).hasSize(10);
        assertThat(chunks.getFirst()).isEqualTo(new PurgeSeed.Chunk(1, 100_000));
        assertThat(chunks.getLast()).isEqualTo(new PurgeSeed.Chunk(900_001, 1_000_000));
        assertThat(chunks.stream().mapToLong(PurgeSeed.Chunk::size).sum()).isEqualTo(1_000_000);
    }

    @Test
    void theLastChunkTakesWhatIsLeftAndNothingMore() {
        assertThat(PurgeSeed.chunks(250_001, 100_000)).containsExactly(new PurgeSeed.Chunk(1, 100_000),
                new PurgeSeed.Chunk(100_001, 200_000), new PurgeSeed.Chunk(200_001, 250_001));
        assertThat(PurgeSeed.chunks(200_001, 100_000).getLast()).isEqualTo(new PurgeSeed.Chunk(200_001, 200_001));
        assertThat(PurgeSeed.chunks(0, 100_000)).isEmpty();
        assertThatThrownBy(() -> PurgeSeed.chunks(10, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theTenantIsOneTheApiTakes() {
        String tenant = PurgeSeed.tenant(Long.toString(Long.MAX_VALUE, 36));
        assertThat(tenant).matches(dev.jobweaver.common.job.JobControlRules.TENANT.pattern())
                .startsWith("bench-purge-");
        assertThat(PurgeSeed.idPrefix(tenant)).isEqualTo(tenant + ":");
        assertThatThrownBy(() -> PurgeSeed.tenant("Upper")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyInsertSelectsOneValuePerColumn() {
        for (String insert : List.of(PurgeSeed.API_JOBS, PurgeSeed.API_ATTEMPTS, PurgeSeed.SCHEDULER_JOBS)) {
            List<String> columns = columns(insert);
            String select = insert.substring(insert.indexOf(" SELECT ") + 8, insert.indexOf(" FROM generate_series"));
            assertThat(topLevel(select)).as(insert).hasSameSizeAs(columns);
        }
    }

    @Test
    void theParametersAreTheOnesTheSeedSets() {
        // PurgeDb sets prefix, tenant, first, last, ago on the jobs' inserts and prefix, first, last, ago on attempts
        assertThat(parameters(PurgeSeed.API_JOBS)).isEqualTo(5);
        assertThat(parameters(PurgeSeed.SCHEDULER_JOBS)).isEqualTo(5);
        assertThat(parameters(PurgeSeed.API_ATTEMPTS)).isEqualTo(4);
        assertThat(parameters(PurgeSeed.API_OTHERS)).isEqualTo(3);
        assertThat(parameters(PurgeSeed.SCHEDULER_OTHERS)).isEqualTo(3);
        assertThat(parameters(PurgeSeed.API_ATTEMPTS_LEFT)).isEqualTo(2);
        // the tenant comes right after the id prefix in both inserts of jobs, and the ago last
        for (String insert : List.of(PurgeSeed.API_JOBS, PurgeSeed.SCHEDULER_JOBS)) {
            assertThat(insert.indexOf("md5(?::text || g)")).isLessThan(insert.indexOf("'NORMAL', ?"));
            assertThat(insert.indexOf("generate_series(?::bigint, ?::bigint)"))
                    .isLessThan(insert.indexOf("make_interval(secs => ?)"));
        }
    }

    @Test
    void bothDatabasesGetTheSameIdsAndTimes() {
        String api = PurgeSeed.API_JOBS;
        String scheduler = PurgeSeed.SCHEDULER_JOBS;
        assertThat(api).contains("md5(?::text || g)::uuid");
        assertThat(scheduler).contains("md5(?::text || g)::uuid");
        assertThat(PurgeSeed.API_ATTEMPTS).contains("md5(?::text || g)::uuid");
        String times = "CROSS JOIN LATERAL (SELECT now() - make_interval(secs => ?) - interval '1 second'"
                + " + g * interval '1 microsecond' AS at) s";
        assertThat(api).endsWith(times);
        assertThat(scheduler).endsWith(times);
        assertThat(PurgeSeed.API_ATTEMPTS).endsWith(times);
    }

    @Test
    void theSeededJobsAreFinishedAndComplete() {
        assertThat(value(PurgeSeed.API_JOBS, "status")).isEqualTo("'COMPLETED'");
        assertThat(value(PurgeSeed.API_JOBS, "finished_at")).isEqualTo("s.at + interval '31 milliseconds'");
        assertThat(value(PurgeSeed.API_JOBS, "attempts")).isEqualTo("1");
        assertThat(value(PurgeSeed.SCHEDULER_JOBS, "job_status")).isEqualTo("'COMPLETED'");
        assertThat(value(PurgeSeed.SCHEDULER_JOBS, "finished_at")).isEqualTo("s.at + interval '31 milliseconds'");
        assertThat(value(PurgeSeed.SCHEDULER_JOBS, "attempt")).isEqualTo("1");
        assertThat(value(PurgeSeed.API_ATTEMPTS, "outcome")).isEqualTo("'COMPLETED'");
    }

    /** Every NOT NULL column without a default in the services' migrations is given a value. */
    @Test
    void everyRequiredColumnIsSet() throws IOException {
        assertThat(columns(PurgeSeed.API_JOBS)).containsAll(required("api-service", "jobs"));
        assertThat(columns(PurgeSeed.API_ATTEMPTS)).containsAll(required("api-service", "job_attempts"));
        assertThat(columns(PurgeSeed.SCHEDULER_JOBS)).containsAll(required("scheduler-service", "job_executions"));
        // the tenant's rows are what the purge and the counts find
        assertThat(columns(PurgeSeed.API_JOBS)).contains("tenant", "finished_at");
        assertThat(columns(PurgeSeed.SCHEDULER_JOBS)).contains("tenant", "finished_at");
    }

    /** The columns of {@code table}'s CREATE TABLE in {@code service}'s migrations NOT NULL without a default. */
    private static List<String> required(String service, String table) throws IOException {
        Path dir = root().resolve(service).resolve("src/main/resources/db/migration");
        List<String> required = new ArrayList<>();
        Pattern create = Pattern.compile("CREATE TABLE " + table + " \\((.*?)\\n\\);", Pattern.DOTALL);
        try (var files = Files.list(dir)) {
            for (Path file : files.toList()) {
                Matcher m = create.matcher(Files.readString(file));
                if (m.find()) {
                    for (String line : m.group(1).split("\n")) {
                        String l = line.strip();
                        String upper = l.toUpperCase(java.util.Locale.ROOT);
                        if (upper.contains("NOT NULL") && !upper.contains("DEFAULT") && !upper.startsWith("--")
                                && !upper.startsWith("PRIMARY KEY")) {
                            required.add(l.split("\\s+")[0].toLowerCase(java.util.Locale.ROOT));
                        }
                    }
                }
            }
        }
        assertThat(required).as(table + " in " + dir).isNotEmpty();
        return required;
    }

    private static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("api-service"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository's root").isNotNull();
        return dir;
    }

    private static List<String> columns(String insert) {
        String list = insert.substring(insert.indexOf('(') + 1, insert.indexOf(')'));
        return topLevel(list).stream().map(String::strip).toList();
    }

    /** The value the insert selects for {@code column}. */
    private static String value(String insert, String column) {
        String select = insert.substring(insert.indexOf(" SELECT ") + 8, insert.indexOf(" FROM generate_series"));
        return topLevel(select).get(columns(insert).indexOf(column)).strip();
    }

    /** {@code text} split at the commas outside parentheses and quotes. */
    private static List<String> topLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int from = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                parts.add(text.substring(from, i));
                from = i + 1;
            }
        }
        parts.add(text.substring(from));
        return parts;
    }

    private static int parameters(String sql) {
        return (int) sql.chars().filter(c -> c == '?').count();
    }
}
