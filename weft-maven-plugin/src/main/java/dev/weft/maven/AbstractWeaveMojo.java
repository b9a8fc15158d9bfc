package dev.weft.maven;

import dev.weft.weaver.WeaveCommand;
import dev.weft.weaver.WeavingException;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What the {@code weave} and {@code weave-tests} goals share: the classes to weave and the
 * switch that skips them. Each goal says which directory it weaves, in place.
 */
public abstract class AbstractWeaveMojo extends AbstractMojo {

    /** For the goals that extend it. */
    protected AbstractWeaveMojo() {
    }

    /**
     * The packages (each with its subpackages) and classes (each with its nested classes) to
     * weave, one per {@code <package>} element: {@code com.example.flows} and
     * {@code com.example.flows.} mean the same, the syntax that the agent and the command line
     * take too. Every class of the directory if there is none.
     */
    @Parameter
    List<String> packages = List.of();

    /**
     * Skips weaving (both goals). The build then carries on with unwoven classes, which cannot
     * be serialized or run on the woven engine.
     */
    @Parameter(property = "weft.weave.skip", defaultValue = "false")
    boolean skip;

    /**
     * The directory this goal weaves.
     *
     * @return the directory of class files
     */
    abstract File directory();

    @Override
    public void execute() throws MojoExecutionException {
        File directory = directory();
        if (skip) {
            getLog().info("weft: weaving skipped");
            return;
        }
        if (!directory.isDirectory()) {
            getLog().info("weft: no classes in " + directory);
            return;
        }
        try {
            int woven = WeaveCommand.weaveDirectory(directory.toPath(), packages);
            getLog().info("weft: wove " + woven + " classes in " + directory);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("weft: <packages>: " + e.getMessage(), e);
        } catch (WeavingException | IOException e) {
            throw new MojoExecutionException("weft: " + e.getMessage(), e);
        }
    }
}
