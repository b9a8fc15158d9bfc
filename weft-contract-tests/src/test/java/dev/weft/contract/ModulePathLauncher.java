package dev.weft.contract;

import static org.junit.platform.engine.discovery.ClassNameFilter.includeClassNamePatterns;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import dev.weft.CoroutineBase;
import java.io.PrintStream;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The main class of the child JVM that {@link ModulePathTest} starts with weft-core on the
 * module path: says which module the API came from, runs every engine's suite through the JUnit
 * Platform, and writes one line per test, for the parent to check.
 *
 * <pre>
 * MODULE  name  exports dev.weft  exports dev.weft.internal.woven  exports dev.weft.internal.engine
 * RESULT  test name  SUCCESSFUL|FAILED|ABORTED  message
 * </pre>
 *
 * Fields are separated by tabs, and messages are on one line.
 */
final class ModulePathLauncher {

    /** The concrete suites: one per contract and engine; stress tests are left to the class-path run. */
    static final String SUITES = "dev\\.weft\\.contract\\.(Native|Woven)\\w+(?<!Stress)Test";

    private ModulePathLauncher() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        Module api = CoroutineBase.class.getModule();
        out.println(String.join("\t", "MODULE", String.valueOf(api.getName()), String.valueOf(api.isExported("dev.weft")),
                String.valueOf(api.isExported("dev.weft.internal.woven")),
                String.valueOf(api.isExported("dev.weft.internal.engine"))));
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectPackage("dev.weft.contract"))
                .filters(includeClassNamePatterns(SUITES))
                .build();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest()) {
                    String message = result.getThrowable().map(Throwable::toString).orElse("").replaceAll("\\s+", " ");
                    out.println(String.join("\t", "RESULT", name(test), result.getStatus().name(), message));
                }
            }
        });
        out.flush();
    }

    /** The suite's simple name and the test's method, with the invocation's name for a parameterized one. */
    private static String name(TestIdentifier test) {
        if (test.getSource().orElse(null) instanceof MethodSource method) {
            String className = method.getClassName();
            String name = className.substring(className.lastIndexOf('.') + 1) + "." + method.getMethodName();
            return test.getDisplayName().equals(method.getMethodName() + "()") ? name : name + " " + test.getDisplayName();
        }
        return test.getDisplayName();
    }
}
