package dev.weft.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/** Captures what an example prints, to compare it with the exact expected text. */
final class Output {

    private Output() {
    }

    /** What {@code example} prints to the stream it is given. */
    static String of(Consumer<PrintStream> example) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            example.accept(out);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** What a {@code main} method prints to {@code System.out}. */
    static String ofMain(Runnable main) {
        PrintStream saved = System.out;
        try {
            return of(out -> {
                System.setOut(out);
                main.run();
            });
        } finally {
            System.setOut(saved);
        }
    }

    /** {@code lines} as printed by {@code println}: each one ends with the line separator. */
    static String text(List<String> lines) {
        StringBuilder text = new StringBuilder();
        for (String line : lines) {
            text.append(line).append(System.lineSeparator());
        }
        return text.toString();
    }

    static String text(String... lines) {
        return text(List.of(lines));
    }
}
