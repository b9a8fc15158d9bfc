package dev.weft.library;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run of a library's test suite gave: whether the library's classes were woven in that
 * JVM, and each test and container found, by JUnit's unique id, with its result. A child JVM
 * writes it ({@link SuiteRunner}) and the test that started the child reads it back.
 *
 * <p>The file is text, UTF-8: a first line {@code woven TAB true|false}, then a line per test or
 * container, {@code STATUS TAB test|container TAB COROUTINE TAB UNIQUE_ID TAB MESSAGE}, where
 * COROUTINE says what coroutine the test ran in, as {@code InWovenCoroutine} reports it
 * ({@code WOVEN:twin}, {@code WOVEN:invocation}), or is {@code -} for none, and MESSAGE is the
 * first line of what a failed or aborted test threw, or why a skipped one was skipped.
 *
 * <p>Immutable; thread-safe.
 *
 * @param woven   whether the library's classes were woven
 * @param results each test and container found, by unique id, in the order found
 */
record SuiteOutcome(boolean woven, Map<String, Result> results) {

    SuiteOutcome {
        results = Collections.unmodifiableMap(new LinkedHashMap<>(results));
    }

    /** How a test or container ended; {@code NOT_RUN} if it was found but neither ran nor was skipped. */
    enum Status { SUCCESSFUL, FAILED, ABORTED, SKIPPED, NOT_RUN }

    /**
     * One test's or container's result.
     *
     * @param status    how it ended
     * @param test      whether it is a test (else a container: an engine, a class, a template)
     * @param coroutine the coroutine it ran in, as {@code InWovenCoroutine} reports it, or null if none
     * @param message   the first line of what it threw, or why it was skipped; empty if neither
     */
    record Result(Status status, boolean test, String coroutine, String message) {
    }

    /** Writes this outcome to {@code file}, in the format of the class comment. */
    void write(Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("woven\t" + woven);
        results.forEach((id, r) -> lines.add(String.join("\t", r.status().name(), r.test() ? "test" : "container",
                r.coroutine() == null ? "-" : r.coroutine(), id, r.message())));
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /** The outcome {@code file} holds, written by {@link #write}. */
    static SuiteOutcome read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith("woven\t")) {
            throw new IOException(file + " is no suite outcome: it does not start with the line woven TAB true|false");
        }
        Map<String, Result> results = new LinkedHashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split("\t", 5);
            if (fields.length != 5) {
                throw new IOException(file + ": not STATUS TAB KIND TAB COROUTINE TAB ID TAB MESSAGE: " + line);
            }
            results.put(fields[3], new Result(Status.valueOf(fields[0]), fields[1].equals("test"),
                    fields[2].equals("-") ? null : fields[2], fields[4]));
        }
        return new SuiteOutcome(Boolean.parseBoolean(lines.get(0).substring("woven\t".length())), results);
    }

    /** How many tests (not containers) ended with {@code status}. */
    long tests(Status status) {
        return results.values().stream().filter(r -> r.test() && r.status() == status).count();
    }

    /** How many tests (not containers) were found. */
    long tests() {
        return results.values().stream().filter(Result::test).count();
    }

    /** One line of counts: found, succeeded, failed, aborted, skipped, not run. */
    String counts() {
        return String.format("%,d tests found: %,d succeeded, %,d failed, %,d aborted, %,d skipped, %,d not run", tests(),
                tests(Status.SUCCESSFUL), tests(Status.FAILED), tests(Status.ABORTED), tests(Status.SKIPPED),
                tests(Status.NOT_RUN));
    }
}
