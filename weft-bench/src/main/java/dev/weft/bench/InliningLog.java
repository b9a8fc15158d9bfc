package dev.weft.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The inlining decisions HotSpot's JIT refused for the callee's size, as a JVM run with
 * {@link #jvmOptions} logs them ({@code -XX:+PrintInlining}, written to a log file instead of
 * standard output): each refusal is a call site, in a compiled method, of a callee too large
 * for the inliner's limits on bytecode size ({@code too big}, {@code hot method too big}) or on
 * the size of the callee's own compiled code ({@code already compiled into a big method}).
 * Read once, then only read.
 */
final class InliningLog {

    /** A callee refused for its size: its bytecode size, and at how many call sites it was refused. */
    record Refusal(String method, int bytes, int times) {
    }

    /** {@code @ 71   com.example.Type::method (676 bytes)   failed to inline: hot method too big} */
    private static final Pattern LINE = Pattern.compile(
            "@ \\d+\\s+(\\S+::\\S+) \\((\\d+) bytes\\)\\s+failed to inline: (.*)");
    private static final Pattern FOR_SIZE = Pattern.compile("too big|too large|big method");

    private final Map<String, Refusal> byMethod;

    private InliningLog(Map<String, Refusal> byMethod) {
        this.byMethod = byMethod;
    }

    /** The options that make a JVM log its inlining decisions to {@code logFile}, and nothing of them to its output. */
    static List<String> jvmOptions(Path logFile) {
        return List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining", "-XX:+LogVMOutput",
                "-XX:-DisplayVMOutput", "-XX:LogFile=" + logFile);
    }

    static InliningLog read(Path logFile) throws IOException {
        try (Stream<String> lines = Files.lines(logFile, StandardCharsets.ISO_8859_1)) {
            return parse(lines);
        }
    }

    static InliningLog parse(Stream<String> lines) {
        Map<String, Refusal> byMethod = new LinkedHashMap<>();
        lines.map(LINE::matcher).filter(Matcher::find).filter(m -> FOR_SIZE.matcher(m.group(3)).find())
                .forEach(m -> byMethod.merge(m.group(1), new Refusal(m.group(1), Integer.parseInt(m.group(2)), 1),
                        (a, b) -> new Refusal(a.method(), Math.max(a.bytes(), b.bytes()), a.times() + b.times())));
        return new InliningLog(byMethod);
    }

    /** The call sites refused for size. */
    int refusals() {
        return byMethod.values().stream().mapToInt(Refusal::times).sum();
    }

    /** The callees refused for size. */
    int methods() {
        return byMethod.size();
    }

    /** The {@code count} callees of {@code packagePrefix} (dotted) refused most often. */
    List<Refusal> mostRefused(String packagePrefix, int count) {
        return byMethod.values().stream().filter(r -> r.method().startsWith(packagePrefix))
                .sorted(Comparator.comparingInt(Refusal::times).reversed().thenComparing(Refusal::method))
                .limit(count).toList();
    }
}
