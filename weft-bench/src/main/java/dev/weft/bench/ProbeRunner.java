package dev.weft.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a probe (a plain main program of this module) in a fresh JVM of the running JDK, on this
 * JVM's class path, and collects the {@code key=value} lines it prints. Its whole output goes
 * to a log file.
 */
final class ProbeRunner {

    /** Why a probe produced no numbers. */
    static final class ProbeFailure extends Exception {
        private static final long serialVersionUID = 1L;

        ProbeFailure(String message) {
            super(message);
        }
    }

    private final Path logDir;

    ProbeRunner(Path logDir) {
        this.logDir = logDir;
    }

    Map<String, String> run(Class<?> main, List<String> args, List<String> jvmOptions, Duration timeout) throws ProbeFailure {
        return run(main, args, jvmOptions, System.getProperty("java.class.path"), timeout);
    }

    /** Runs the probe on {@code classPath} instead of this JVM's. */
    Map<String, String> run(Class<?> main, List<String> args, List<String> jvmOptions, String classPath,
            Duration timeout) throws ProbeFailure {
        List<String> command = Jvm.command(jvmOptions, classPath, main, args);
        Path log = logDir.resolve(main.getSimpleName() + "-" + String.join("-", args) + ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new ProbeFailure("did not finish within " + timeout.toSeconds() + " s (log: " + log + ")");
            }
            List<String> output = Files.readAllLines(log, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                String last = output.stream().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("no output");
                throw new ProbeFailure("exit " + process.exitValue() + ": " + last + " (log: " + log + ")");
            }
            return parse(output);
        } catch (IOException e) {
            throw new ProbeFailure("could not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProbeFailure("interrupted");
        }
    }

    /** The {@code key=value} lines of a probe's output; other lines are ignored. */
    static Map<String, String> parse(List<String> output) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : output) {
            int eq = line.indexOf('=');
            if (eq > 0 && line.substring(0, eq).matches("[a-z][a-z0-9-]*")) {
                values.put(line.substring(0, eq), line.substring(eq + 1).strip());
            }
        }
        return values;
    }

    /** A number the probe printed, or a failure naming the missing key. */
    static double number(Map<String, String> values, String key) throws ProbeFailure {
        String v = values.get(key);
        if (v == null) {
            throw new ProbeFailure("the probe printed no " + key);
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new ProbeFailure(key + " is not a number: " + v);
        }
    }
}
