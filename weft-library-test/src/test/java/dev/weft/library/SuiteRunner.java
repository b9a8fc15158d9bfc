package dev.weft.library;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.platform.engine.DiscoveryFilter;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.PackageNameFilter;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The program a child JVM of {@link CommonsLang3SuiteTest} and {@code GuavaSuiteTest} runs: runs the JUnit tests of the
 * packages and classes it is given, as found on its class path, and writes their
 * {@link SuiteOutcome} to a file.
 *
 * <pre>
 * java ... dev.weft.library.SuiteRunner OUTCOME_FILE PROBE_CLASS SELECTOR...
 * </pre>
 *
 * A SELECTOR is {@code package:NAME} (the package and its subpackages) or {@code class:NAME},
 * which select, or {@code not-package:NAME} or {@code not-class:NAME} (with its nested classes),
 * which leave out of what the others select, or {@code engine:ID}, which runs only the test
 * engines so named (all of those on the class path if there is none); if a package is
 * selected, JUnit's standard class name pattern chooses the test classes among what is selected
 * (else a class selected runs whatever its name, such as a JUnit 3 suite's). PROBE_CLASS is a class of the library whose being
 * woven tells whether the library on the class path is. JUnit's configuration comes from
 * system properties, as the launcher reads them. Exits with status 0 whatever the tests did
 * (the outcome says it), even if a test left a thread running; 1 if the run itself failed (an
 * error that JUnit lets through, such as an {@code OutOfMemoryError}); 2 on a usage error.
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
     */
    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: SuiteRunner OUTCOME_FILE PROBE_CLASS ([not-]package:NAME | [not-]class:NAME | engine:ID)...");
            System.exit(2);
        }
        try {
            run(Path.of(args[0]), args[1], Arrays.asList(args).subList(2, args.length));
        } catch (Throwable failure) { // the launcher lets errors such as OutOfMemoryError through
            failure.printStackTrace();
            System.exit(1);
        }
        System.exit(0); // threads some tests leave behind must not keep the JVM alive
    }

    private static void run(Path outcomeFile, String probe, List<String> selectors) throws Exception {
        boolean woven = isWoven(Class.forName(probe));
        OutcomeListener listener = new OutcomeListener();
        LauncherFactory.create().execute(request(selectors), listener);
        SuiteOutcome outcome = new SuiteOutcome(woven, listener.results());
        outcome.write(outcomeFile);
        System.out.println(outcome.counts());
    }

    /** Whether {@code type} was woven: it declares the method the weaver marks woven classes with. */
    static boolean isWoven(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods()).anyMatch(m -> m.getName().equals(WOVEN_MARKER));
    }

    private static LauncherDiscoveryRequest request(List<String> selectors) {
        List<DiscoverySelector> included = new ArrayList<>();
        List<DiscoveryFilter<?>> filters = new ArrayList<>();
        List<String> engines = new ArrayList<>();
        for (String selector : selectors) {
            String kind = selector.substring(0, Math.max(0, selector.indexOf(':')));
            String name = selector.substring(kind.length() + 1);
            switch (kind) {
                case "package" -> included.add(selectPackage(name));
                case "class" -> included.add(selectClass(name));
                case "not-package" -> filters.add(PackageNameFilter.excludePackageNames(name));
                case "not-class" -> filters.add(ClassNameFilter.excludeClassNamePatterns(Pattern.quote(name) + "(\\$.*)?"));
                case "engine" -> engines.add(name);
                default -> throw new IllegalArgumentException("a selector is package:NAME, class:NAME, not-package:NAME,"
                        + " not-class:NAME or engine:ID, not " + selector);
            }
        }
        if (selectors.stream().anyMatch(s -> s.startsWith("package:"))) {
            filters.add(ClassNameFilter.includeClassNamePatterns(ClassNameFilter.STANDARD_INCLUDE_PATTERN));
        }
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request().selectors(included)
                .filters(filters.toArray(DiscoveryFilter[]::new));
        if (!engines.isEmpty()) {
            request.filters(EngineFilter.includeEngines(engines));
        }
        return request.build();
    }
}
