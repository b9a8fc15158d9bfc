package dev.weft.maven;

import java.io.File;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/** Weaves the project's compiled test classes in place; bound to {@code process-test-classes}. */
@Mojo(name = "weave-tests", defaultPhase = LifecyclePhase.PROCESS_TEST_CLASSES, threadSafe = true)
public class WeaveTestsMojo extends WeaveMojo {

    /** The directory of test classes to weave. */
    @Parameter(defaultValue = "${project.build.testOutputDirectory}", required = true)
    File testClassesDirectory;

    @Override
    public void execute() throws org.apache.maven.plugin.MojoExecutionException {
        classesDirectory = testClassesDirectory;
        super.execute();
    }
}
