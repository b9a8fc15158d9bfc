package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TableTest {

    @Test
    void rendersAPaddedMarkdownTableWithNumbersAlignedRight() {
        String table = new Table("count", "ns").row("2", "177").row("1,000", "95.3").render();
        assertEquals("""
                | count |   ns |
                | ----- | ---: |
                | 2     |  177 |
                | 1,000 | 95.3 |
                """, table);
    }

    @Test
    void textTablesAreAlignedLeft() {
        String table = new Table("goal", "status").textColumns().row("steal under 1 µs", "MET").render();
        assertEquals("""
                | goal             | status |
                | ---------------- | ------ |
                | steal under 1 µs | MET    |
                """, table);
    }

    @Test
    void missingCellsAreEmptyAndPipesAreEscaped() {
        String table = new Table("a", "b", "c").row("x|y").render();
        assertEquals("""
                | a    |   b |   c |
                | ---- | --: | --: |
                | x\\|y |     |     |
                """, table);
    }

    @Test
    void extraCellsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Table("a").row("1", "2"));
    }
}
