package dev.weft.bench;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Runs a probe's main in this JVM and reads the {@code key=value} lines it prints. */
final class ProbeOutput {

    /** A probe's main. */
    interface Main {
        void run(String[] args) throws Exception;
    }

    private ProbeOutput() {
    }

    static Map<String, String> of(Main main, String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            main.run(args);
        } finally {
            System.setOut(original);
        }
        return ProbeRunner.parse(List.of(bytes.toString(StandardCharsets.UTF_8).split("\n")));
    }
}
