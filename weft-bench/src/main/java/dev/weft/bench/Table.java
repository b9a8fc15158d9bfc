package dev.weft.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A markdown table: a header, then rows of cells. The first column is aligned left and the
 * others right (they hold numbers), unless {@link #textColumns} says otherwise; columns are
 * padded so the source reads as a table too.
 */
final class Table {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private int leftAligned = 1;

    Table(String... header) {
        this.header = List.of(header);
    }

    /** Aligns every column left: a table of text rather than numbers. */
    Table textColumns() {
        leftAligned = header.size();
        return this;
    }

    /** Adds a row; missing cells are left empty, extra ones refused. */
    Table row(String... cells) {
        if (cells.length > header.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + header.size() + " columns: " + Arrays.toString(cells));
        }
        List<String> row = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            row.add(i < cells.length && cells[i] != null ? Format.cell(cells[i]) : "");
        }
        rows.add(row);
        return this;
    }

    /** Adds a row of {@code cells}, as {@link #row(String...)} does. */
    Table row(List<String> cells) {
        return row(cells.toArray(String[]::new));
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String render() {
        int[] widths = new int[header.size()];
        for (int i = 0; i < widths.length; i++) {
            widths[i] = Math.max(3, header.get(i).length());
            for (List<String> row : rows) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header.stream().map(Format::cell).toList(), widths, leftAligned);
        out.append('|');
        for (int i = 0; i < widths.length; i++) {
            out.append(' ').append(i < leftAligned ? "-".repeat(widths[i]) : "-".repeat(widths[i] - 1) + ":").append(" |");
        }
        out.append('\n');
        for (List<String> row : rows) {
            line(out, row, widths, leftAligned);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths, int leftAligned) {
        out.append('|');
        for (int i = 0; i < widths.length; i++) {
            String c = cells.get(i);
            String pad = " ".repeat(widths[i] - c.length());
            out.append(' ').append(i < leftAligned ? c + pad : pad + c).append(" |");
        }
        out.append('\n');
    }
}
