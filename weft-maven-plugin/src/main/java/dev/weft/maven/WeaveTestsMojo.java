package dev.weft.maven;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Weaves the project's compiled test classes in place, for tests whose own coroutines are
 * serialized or run on the woven engine. Bound to {@code process-test-classes}, before the tests
 * run. Takes the same {@code packages} and {@code skip} as the {@code weave} goal.
 */
@Mojo(name = "weave-tests", defaultPhase = LifecyclePhase.PROCESS_TEST_CLASSES, threadSafe = true)
public class WeaveTestsMojo extends AbstractWeaveMojo {

    /** Made by Maven for each execution of the goal. */
    public WeaveTestsMojo() {
    }

    /** The directory of test classes to weave: the project's compiled test classes by default. */
    @Parameter(defaultValue = "${project.build.testOutputDirectory}", required = true)
    File testClassesDirectory;

    @Override
    File directory() {
        return testClassesDirectory;
    }
}
