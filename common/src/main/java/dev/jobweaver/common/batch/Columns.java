package dev.jobweaver.common.batch;

import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The columns of a set-based statement ({@code INSERT ... SELECT FROM unnest($1::uuid[], ...)}, {@code UPDATE ...
 * FROM unnest(...)}): one typed array per column, one element per row, in the rows' order.
 *
 * <p>The array's element type is what the SQL client binds it as ({@code UUID[]} as {@code uuid[]}, {@code
 * OffsetDateTime[]} as {@code timestamptz[]}), which is why the caller names it. Null values stay null elements.
 */
public final class Columns {

    private Columns() {
    }

    /**
     * {@code value} of each of {@code rows}, in order, in an array made by {@code newArray}.
     *
     * @param newArray e.g. {@code UUID[]::new}
     */
    public static <R, V> V[] of(List<? extends R> rows, Function<? super R, ? extends V> value,
                                IntFunction<V[]> newArray) {
        V[] column = newArray.apply(rows.size());
        for (int i = 0; i < column.length; i++) {
            column[i] = value.apply(rows.get(i));
        }
        return column;
    }
}
