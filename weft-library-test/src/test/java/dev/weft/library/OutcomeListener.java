package dev.weft.library;

import dev.weft.library.SuiteOutcome.Result;
import dev.weft.library.SuiteOutcome.Status;
import dev.weft.library.coroutine.InWovenCoroutine;
import dev.weft.library.coroutine.JUnit3InWovenCoroutine;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Records, for {@link SuiteRunner}, every test and container that JUnit finds (in the test plan
 * and registered dynamically), how each ended, and the coroutine that
 * {@link InWovenCoroutine} reports each test ran on, or, for a JUnit 3 test,
 * {@link JUnit3InWovenCoroutine} says it is running in when it ends.
 *
 * <p>Thread-safe: JUnit may call a listener from the threads that run tests.
 */
final class OutcomeListener implements TestExecutionListener {

    /** The longest message kept: enough to recognize a failure by. */
    private static final int MESSAGE_LIMIT = 500;

    private final Map<String, TestIdentifier> found = new LinkedHashMap<>();
    private final Map<String, Result> ended = new HashMap<>();
    private final Map<String, String> coroutines = new HashMap<>();

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan plan) {
        for (TestIdentifier root : plan.getRoots()) {
            found.put(root.getUniqueId(), root);
            plan.getDescendants(root).forEach(id -> found.put(id.getUniqueId(), id));
        }
    }

    @Override
    public synchronized void dynamicTestRegistered(TestIdentifier identifier) {
        found.put(identifier.getUniqueId(), identifier);
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier identifier, String reason) {
        ended.put(identifier.getUniqueId(), new Result(Status.SKIPPED, identifier.isTest(), null, firstLine(reason)));
    }

    @Override
    public synchronized void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
        String message = result.getThrowable().map(Throwable::toString).map(OutcomeListener::firstLine).orElse("");
        String coroutine = coroutines.get(identifier.getUniqueId());
        if (coroutine == null && identifier.isTest()) {
            coroutine = JUnit3InWovenCoroutine.RAN.get(); // a JUnit 3 test ends on the thread that runs it
        }
        ended.put(identifier.getUniqueId(), new Result(Status.valueOf(result.getStatus().name()), identifier.isTest(),
                coroutine, message));
    }

    @Override
    public synchronized void reportingEntryPublished(TestIdentifier identifier, ReportEntry entry) {
        String coroutine = entry.getKeyValuePairs().get(InWovenCoroutine.COROUTINE_KEY);
        if (coroutine != null) {
            coroutines.put(identifier.getUniqueId(), coroutine);
        }
    }

    /** Each test and container found, in the order found, with how it ended. */
    synchronized Map<String, Result> results() {
        Map<String, Result> results = new LinkedHashMap<>();
        found.forEach((id, identifier) -> results.put(id,
                ended.getOrDefault(id, new Result(Status.NOT_RUN, identifier.isTest(), null, ""))));
        return results;
    }

    private static String firstLine(String text) {
        String line = text == null ? "" : text.lines().findFirst().orElse("").replace('\t', ' ');
        return line.length() <= MESSAGE_LIMIT ? line : line.substring(0, MESSAGE_LIMIT) + "...";
    }
}
