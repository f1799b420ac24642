package dev.jobweaver.common.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link Columns}: one typed array per column, in the rows' order, nulls kept. */
class ColumnsTest {

    private record Row(UUID id, String name, Integer count) {
    }

    @Test
    void eachColumnHoldsItsValueOfEveryRowInOrderAsTheArrayTypeAsked() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        List<Row> rows = List.of(new Row(a, "first", 1), new Row(b, null, 2));

        UUID[] ids = Columns.of(rows, Row::id, UUID[]::new);
        String[] names = Columns.of(rows, Row::name, String[]::new);
        Integer[] counts = Columns.of(rows, r -> r.count() * 10, Integer[]::new);

        assertThat(ids).containsExactly(a, b);
        assertThat(names).containsExactly("first", null);
        assertThat(counts).containsExactly(10, 20);
        assertThat(ids.getClass()).isEqualTo(UUID[].class);
    }

    @Test
    void noRowsGiveEmptyColumns() {
        assertThat(Columns.of(List.<Row>of(), Row::id, UUID[]::new)).isEmpty();
    }
}
