package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A plain-text table with a header row and columns padded to their widest cell. */
public final class TextTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    /** A table with these column titles; a title with line breaks takes as many lines, aligned at the top. */
    public TextTable(String... header) {
        this.header = List.of(header);
    }

    /** Adds a row; missing cells are empty, extra cells are an error. */
    public TextTable row(String... cells) {
        if (cells.length > header.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table " + header.size());
        }
        List<String> row = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            row.add(i < cells.length && cells[i] != null ? cells[i] : "");
        }
        rows.add(row);
        return this;
    }

    /**
     * This table with the rows {@code rows} adds for each of {@code items}, in their order; null when there are no
     * items, which a report takes as a table it leaves out.
     */
    <T> TextTable forEachOrNull(List<T> items, Consumer<T> rows) {
        if (items.isEmpty()) {
            return null;
        }
        items.forEach(rows);
        return this;
    }

    /** The column titles. */
    public List<String> header() {
        return header;
    }

    /** The rows so far, each as wide as the header. */
    public List<List<String>> rows() {
        return List.copyOf(rows);
    }

    /** The rendered table, lines ending in '\n'; numbers-looking cells are right-aligned. */
    public String render() {
        List<List<String>> titles = header.stream().map(title -> title.lines().toList()).toList();
        int titleLines = Math.max(1, titles.stream().mapToInt(List::size).max().orElse(1));
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = titles.get(i).stream().mapToInt(String::length).max().orElse(0);
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (int l = 0; l < titleLines; l++) {
            int at = l;
            line(out, titles.stream().map(t -> at < t.size() ? t.get(at) : "").toList(), widths, false);
        }
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(widths[i]));
        }
        out.append(rule).append('\n');
        rows.forEach(row -> line(out, row, widths, true));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths, boolean alignNumbers) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            String cell = cells.get(i);
            String pad = " ".repeat(widths[i] - cell.length());
            line.append(i == 0 ? "" : "  ");
            line.append(alignNumbers && numeric(cell) ? pad + cell : cell + pad);
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static boolean numeric(String cell) {
        return !cell.isEmpty() && cell.matches("-?[0-9][0-9.,]*%?|-|[0-9.]+ / [0-9.]+|[0-9.]+ \\([0-9.]+%\\)");
    }
}
