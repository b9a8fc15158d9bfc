package dev.weft.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where a marker comment, {@code // line:name}, stands in a test's own source file: the line a
 * message must name, found as the source is now rather than written down as a number that would
 * drift when the file changes. The tests run in their module's directory.
 */
final class SourceLines {

    private SourceLines() {
    }

    /** The 1-based line of {@code type}'s source file (its top-level class's) that ends with {@code // line:marker}. */
    static int lineOf(Class<?> type, String marker) {
        Class<?> top = type;
        while (top.getEnclosingClass() != null) {
            top = top.getEnclosingClass();
        }
        Path file = Path.of("src/test/java", top.getName().replace('.', '/') + ".java");
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int found = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).stripTrailing().endsWith("// line:" + marker)) {
                if (found >= 0) {
                    throw new AssertionError("two lines marked " + marker + " in " + file);
                }
                found = i + 1;
            }
        }
        if (found < 0) {
            throw new AssertionError("no line marked " + marker + " in " + file);
        }
        return found;
    }
}
