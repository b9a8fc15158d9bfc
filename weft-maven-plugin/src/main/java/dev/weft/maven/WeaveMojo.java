package dev.weft.maven;

import dev.weft.weaver.WeaveCommand;
import dev.weft.weaver.WeavingException;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Weaves the project's compiled classes in place, so that coroutines running them can be
 * serialized. Bound to {@code process-classes}; weaving a woven class changes nothing.
 *
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.weft</groupId>
 *   <artifactId>weft-maven-plugin</artifactId>
 *   <executions><execution><goals><goal>weave</goal></goals></execution></executions>
 *   <configuration><packages><package>com.example.flows.</package></packages></configuration>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "weave", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true)
public class WeaveMojo extends AbstractMojo {

    /** The directory of classes to weave. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
    File classesDirectory;

    /** Class name prefixes to weave (such as {@code com.example.}); all classes if empty. */
    @Parameter
    List<String> packages = List.of();

    /** Skips weaving. */
    @Parameter(property = "weft.weave.skip", defaultValue = "false")
    boolean skip;

    @Override
    public void execute() throws MojoExecutionException {
        if (skip) {
            getLog().info("weft: weaving skipped");
            return;
        }
        if (!classesDirectory.isDirectory()) {
            getLog().info("weft: no classes in " + classesDirectory);
            return;
        }
        try {
            int woven = WeaveCommand.weaveDirectory(classesDirectory.toPath(), packages);
            getLog().info("weft: wove " + woven + " classes in " + classesDirectory);
        } catch (WeavingException | IOException e) {
            throw new MojoExecutionException("weft: " + e.getMessage(), e);
        }
    }
}
