package dev.weft;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class of the test class path in a JVM of its own, for what one JVM cannot show twice. */
final class JavaProcess {

    record Result(int exitCode, String output) {
    }

    private JavaProcess() {
    }

    static Result run(List<String> jvmOptions, Class<?> mainClass, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("child JVM did not end: " + command);
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    static final String ACCESS = "--add-exports=java.base/jdk.internal.vm=ALL-UNNAMED";
}
