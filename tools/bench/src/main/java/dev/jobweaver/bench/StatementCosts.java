package dev.jobweaver.bench;

import static dev.jobweaver.bench.Targets.fmt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the services' SQL statements cost the jobs of one workload: per statement (as {@code pg_stat_statements}
 * normalises it, constants replaced by {@code $n}) its calls and execution time per job, and per database the sum.
 *
 * <p>Execution time is the server's time inside the statement, not its CPU and not the round trip: a commit's time is
 * mostly its WAL flush, and the CPU of parsing, sending and waking a backend is outside every statement.
 *
 * @param rows every statement the services ran in the window
 * @param jobs the jobs the API stored in the window, the divisor of every "per job"
 */
record StatementCosts(List<Row> rows, long jobs) {

    /** How many statements the console table shows, the costliest first; the CSV has them all. */
    static final int SHOWN = 15;
    private static final int TEXT_WIDTH = 90;

    /**
     * One normalised statement of one database.
     *
     * @param database the database, e.g. {@code jobweaver_api}
     * @param query the statement's text as normalised
     * @param calls times it ran
     * @param rows rows it returned or changed, over all calls
     * @param execMs milliseconds spent executing it, over all calls
     * @param walBytes WAL it wrote, over all calls
     */
    record Row(String database, String query, long calls, long rows, double execMs, double walBytes) {
    }

    StatementCosts {
        rows = rows.stream().sorted(Comparator.comparingDouble(Row::execMs).reversed()).toList();
    }

    /** Calls of {@code row} per job; NaN without jobs. */
    double callsPerJob(Row row) {
        return jobs > 0 ? (double) row.calls() / jobs : Double.NaN;
    }

    /** Execution microseconds of {@code row} per job; NaN without jobs. */
    double execMicrosPerJob(Row row) {
        return jobs > 0 ? row.execMs() * 1000.0 / jobs : Double.NaN;
    }

    /**
     * Per database, in name order, the sum of its statements: a {@link Row} whose {@code query} is the count of
     * distinct statements.
     */
    List<Row> byDatabase() {
        Map<String, Row> sums = new LinkedHashMap<>();
        rows.stream().sorted(Comparator.comparing(Row::database)).forEach(r -> sums.merge(r.database(),
                new Row(r.database(), "1", r.calls(), r.rows(), r.execMs(), r.walBytes()),
                (a, b) -> new Row(a.database(), Integer.toString(Integer.parseInt(a.query()) + 1),
                        a.calls() + b.calls(), a.rows() + b.rows(), a.execMs() + b.execMs(),
                        a.walBytes() + b.walBytes())));
        return List.copyOf(sums.values());
    }

    /** The per-database sums, then the {@link #SHOWN} costliest statements. */
    String render(String label) {
        StringBuilder out = new StringBuilder();
        out.append("\nSQL statements of ").append(label).append(" per job (").append(jobs)
                .append(" jobs stored; pg_stat_statements, the services' statements only; time is execution")
                .append(" inside the server)\n");
        TextTable totals = new TextTable("database", "statements", "calls/job", "exec us/job", "WAL bytes/job");
        byDatabase().forEach(d -> totals.row(shortName(d.database()), d.query(), fmt(callsPerJob(d)),
                fmt(execMicrosPerJob(d)), fmt(jobs > 0 ? d.walBytes() / jobs : Double.NaN)));
        out.append(totals.render());
        TextTable top = new TextTable("db", "calls/job", "rows/call", "exec us/job", "us/call", "statement");
        rows.stream().limit(SHOWN).forEach(r -> top.row(shortName(r.database()), fmt(callsPerJob(r)),
                fmt(r.calls() > 0 ? (double) r.rows() / r.calls() : Double.NaN), fmt(execMicrosPerJob(r)),
                fmt(r.calls() > 0 ? r.execMs() * 1000.0 / r.calls() : Double.NaN), oneLine(r.query(), TEXT_WIDTH)));
        out.append(top.render());
        return out.toString();
    }

    /** Every statement, costliest first, one CSV line each, its text on one line. */
    String csv() {
        List<String> lines = new ArrayList<>();
        lines.add("database,calls,rows,exec_ms,wal_bytes,calls_per_job,exec_us_per_job,statement");
        rows.forEach(r -> lines.add(String.join(",", r.database(), Long.toString(r.calls()),
                Long.toString(r.rows()), String.format(Locale.ROOT, "%.3f", r.execMs()),
                String.format(Locale.ROOT, "%.0f", r.walBytes()),
                String.format(Locale.ROOT, "%.4f", callsPerJob(r)),
                String.format(Locale.ROOT, "%.2f", execMicrosPerJob(r)),
                '"' + oneLine(r.query(), Integer.MAX_VALUE).replace("\"", "\"\"") + '"')));
        return String.join("\n", lines) + "\n";
    }

    /** {@code jobweaver_api} as {@code api}. */
    static String shortName(String database) {
        return database.startsWith("jobweaver_") ? database.substring("jobweaver_".length()) : database;
    }

    /** {@code text} with its whitespace runs as single spaces, cut to {@code width} characters with "...". */
    static String oneLine(String text, int width) {
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() <= width ? line : line.substring(0, width - 3) + "...";
    }
}
