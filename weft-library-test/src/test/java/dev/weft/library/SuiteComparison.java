package dev.weft.library;

import dev.weft.library.SuiteOutcome.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The differences between two runs of the same suite: each test or container found by one run
 * and not the other, or found by both with another status. Each difference is a line that names
 * the test's unique id, its status in each run and, where it has one, what it threw or why it
 * was skipped.
 *
 * <p>Functions of their arguments only; thread-safe.
 */
final class SuiteComparison {

    private SuiteComparison() {
    }

    /**
     * The differences of {@code other} from {@code baseline}, one line each, in the order of the
     * unique ids; empty if the two found the same tests and containers with the same statuses.
     */
    static List<String> differences(String baselineName, SuiteOutcome baseline, String otherName, SuiteOutcome other) {
        List<String> differences = new ArrayList<>();
        TreeSet<String> ids = new TreeSet<>(baseline.results().keySet());
        ids.addAll(other.results().keySet());
        for (String id : ids) {
            Result expected = baseline.results().get(id);
            Result actual = other.results().get(id);
            if (expected == null || actual == null || expected.status() != actual.status()) {
                differences.add(id + ": " + describe(baselineName, expected) + ", " + describe(otherName, actual));
            }
        }
        return differences;
    }

    private static String describe(String run, Result result) {
        if (result == null) {
            return "not found " + run;
        }
        return result.status() + " " + run + (result.message().isEmpty() ? "" : " (" + result.message() + ")");
    }

    /** The lines of {@code differences} as one text, a line each, or a line saying there is none. */
    static String report(List<String> differences) {
        return differences.isEmpty() ? "no difference" : differences.size() + " differences:\n" + String.join("\n", differences);
    }

    /** The unique ids of the tests in {@code outcome} whose results satisfy {@code which}. */
    static List<String> tests(SuiteOutcome outcome, Predicate<Result> which) {
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, Result> e : outcome.results().entrySet()) {
            if (e.getValue().test() && which.test(e.getValue())) {
                ids.add(e.getKey());
            }
        }
        return ids;
    }
}
