package dev.weft.examples.web;

import dev.weft.Engine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The web demo ({@link WebDemo}) as a process of its own, as the browser tests run it: on a
 * port, over a SQLite file, running an engine, with the environment given (the console's
 * token). Its output is drained so that its pipe never fills.
 */
final class DemoServer {

    private DemoServer() {
    }

    /** The demo on {@code port} over {@code database}, running {@code engine}, started and listening. */
    static Process start(int port, Path database, Engine engine, Map<String, String> environment) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), WebDemo.class.getName(),
                "--port", String.valueOf(port), "--sqlite", database.toString(),
                "--engine", engine.name().toLowerCase(Locale.ROOT)));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove("WEFT_CONSOLE_TOKEN");
        builder.environment().putAll(environment);
        Process process = builder.start();
        BufferedReader output = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String line = output.readLine();
        if (line == null || !line.startsWith("listening on")) {
            process.destroyForcibly();
            throw new IOException("the demo server did not start: " + line);
        }
        Thread drain = new Thread(() -> {
            try {
                while (output.readLine() != null) {
                    // keeps the pipe from filling
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        drain.setDaemon(true);
        drain.start();
        return process;
    }
}
