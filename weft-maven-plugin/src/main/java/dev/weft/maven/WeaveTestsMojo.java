package dev.weft.maven;

import java.io.File;
import java.util.List;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Weaves the project's compiled test classes in place, for tests whose own coroutines are
 * serialized or run on the woven engine. Bound to {@code process-test-classes}, before the tests
 * run. Takes the same {@code packages}, {@code skip} and {@code failOnUnmatched} as the
 * {@code weave} goal; a {@code <package>} counts as matched if it matches a test class or a
 * main class, so that a configuration shared with {@code weave} does not fail here for a
 * package that has no tests.
 */
@Mojo(name = "weave-tests", defaultPhase = LifecyclePhase.PROCESS_TEST_CLASSES, threadSafe = true)
public class WeaveTestsMojo extends AbstractWeaveMojo {

    /** Made by Maven for each execution of the goal. */
    public WeaveTestsMojo() {
    }

    /** The directory of test classes to weave: the project's compiled test classes by default. */
    @Parameter(defaultValue = "${project.build.testOutputDirectory}", required = true)
    File testClassesDirectory;

    /**
     * The project's main classes, not woven by this goal: a {@code <package>} that matches one of
     * them counts as matched.
     */
    @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
    File classesDirectory;

    @Override
    File directory() {
        return testClassesDirectory;
    }

    @Override
    List<File> matchedIn() {
        return List.of(testClassesDirectory, classesDirectory);
    }
}
