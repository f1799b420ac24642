package dev.jobweaver.api.platform.db;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One page of a listing and how many rows match in all: what every paged list of the API reads.
 *
 * @param items the page's items, in the listing's order
 * @param total how many rows match the listing's filter, on every page
 */
public record Slice<T>(List<T> items, long total) {

    /**
     * The page {@code rows} reads, each row as {@code item}, with the count {@code count} reads. The count is read once
     * the rows are, since a reactive session runs one statement at a time; both run in the caller's session.
     */
    public static <R, T> Uni<Slice<T>> read(Uni<List<R>> rows, Supplier<Uni<Long>> count, Function<R, T> item) {
        return rows.chain(found -> count.get().map(total -> new Slice<>(found.stream().map(item).toList(), total)));
    }
}
