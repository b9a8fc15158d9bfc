package dev.weft.library;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The program a child JVM of {@link LibrarySuiteTest} runs: runs the JUnit tests of the
 * packages and classes it is given, as found on its class path, and writes their
 * {@link SuiteOutcome} to a file.
 *
 * <pre>
 * java ... dev.weft.library.SuiteRunner OUTCOME_FILE PROBE_CLASS SELECTOR...
 * </pre>
 *
 * A SELECTOR is {@code package:NAME} (the package and its subpackages) or {@code class:NAME};
 * in both, JUnit's standard class name pattern chooses the test classes. PROBE_CLASS is a class
 * of the library whose being woven tells whether the library on the class path is. JUnit's
 * configuration comes from system properties, as the launcher reads them. Exits with status 0
 * whatever the tests did (the outcome says it), even if a test left a thread running; 2 on a
 * usage error.
 *
 * <p>Runs on its main thread; the tests run as JUnit runs them.
 */
public final class SuiteRunner {

    /** The method the weaver adds to every class it weaves, which marks it woven. */
    static final String WOVEN_MARKER = "$weft$wovenSites";

    private SuiteRunner() {
    }

    /**
     * Runs the tests and writes their outcome.
     *
     * @param args the outcome file, the probe class, then one or more selectors
     * @throws Exception if the probe class cannot be loaded or the outcome cannot be written
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: SuiteRunner OUTCOME_FILE PROBE_CLASS (package:NAME | class:NAME)...");
            System.exit(2);
        }
        boolean woven = isWoven(Class.forName(args[1]));
        OutcomeListener listener = new OutcomeListener();
        LauncherFactory.create().execute(request(Arrays.asList(args).subList(2, args.length)), listener);
        SuiteOutcome outcome = new SuiteOutcome(woven, listener.results());
        outcome.write(Path.of(args[0]));
        System.out.println(outcome.counts());
        System.exit(0); // threads some tests leave behind must not keep the JVM alive
    }

    /** Whether {@code type} was woven: it declares the method the weaver marks woven classes with. */
    static boolean isWoven(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(WOVEN_MARKER));
    }

    private static LauncherDiscoveryRequest request(List<String> selectors) {
        return LauncherDiscoveryRequestBuilder.request()
                .selectors(selectors.stream().map(SuiteRunner::selector).toList())
                .filters(ClassNameFilter.includeClassNamePatterns(ClassNameFilter.STANDARD_INCLUDE_PATTERN))
                .build();
    }

    private static DiscoverySelector selector(String text) {
        if (text.startsWith("package:")) {
            return selectPackage(text.substring("package:".length()));
        } else if (text.startsWith("class:")) {
            return selectClass(text.substring("class:".length()));
        }
        throw new IllegalArgumentException("a selector is package:NAME or class:NAME, not " + text);
    }
}
