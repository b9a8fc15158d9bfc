package dev.weft.maven;

import java.io.File;
import java.util.List;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Weaves the project's compiled classes in place, so that coroutines running them can be
 * serialized and can run on the woven engine. Bound to {@code process-classes}, after the
 * compiler and before the tests and the jar; weaving a woven class changes nothing.
 *
 * <p>Configured with {@code <packages><package>com.example.flows</package></packages>}; the
 * README's "Using Weft in your build" shows the whole plugin element, and
 * {@code mvn dev.weft:weft-maven-plugin:help -Ddetail} lists the goals and their parameters.
 */
@Mojo(name = "weave", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true)
public class WeaveMojo extends AbstractWeaveMojo {

    /** Made by Maven for each execution of the goal. */
    public WeaveMojo() {
    }

    /** The directory of classes to weave: the project's compiled main classes by default. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
    File classesDirectory;

    @Override
    File directory() {
        return classesDirectory;
    }

    @Override
    List<File> matchedIn() {
        return List.of(classesDirectory);
    }
}
