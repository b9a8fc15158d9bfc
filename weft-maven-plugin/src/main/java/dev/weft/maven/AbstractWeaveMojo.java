package dev.weft.maven;

import dev.weft.weaver.ClassSelection;
import dev.weft.weaver.WeaveCommand;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * What the {@code weave} and {@code weave-tests} goals share: the classes to weave, the switch
 * that skips them, and the check that each {@code <package>} selects a class. Each goal says
 * which directory it weaves, in place, and in which directories a {@code <package>} may find
 * its classes.
 *
 * <p>The check comes before any weaving: a build that fails on it leaves every class as the
 * compiler wrote it. A goal whose directory does not exist weaves and checks nothing.
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
     * Whether a {@code <package>} that matches no class fails the build (a typo, most likely),
     * naming it; if false, the goal only warns and weaves the rest. {@code weave} looks for
     * matches in the classes it weaves; {@code weave-tests} in the test classes and the main
     * classes, so that one configuration serves both goals.
     */
    @Parameter(property = "weft.weave.failOnUnmatched", defaultValue = "true")
    boolean failOnUnmatched = true;

    /**
     * Whether a class that cannot be woven, or a method left as compiled (too large to weave, or
     * of a shape the weaver leaves alone), fails the build; if false, each is a warning, with
     * why, and the rest is woven.
     */
    @Parameter(property = "weft.weave.strict", defaultValue = "false")
    boolean strict;

    /**
     * The directory this goal weaves.
     *
     * @return the directory of class files
     */
    abstract File directory();

    /**
     * The directories in which a {@code <package>} must match a class, the woven one first.
     *
     * @return the directories; those that do not exist are passed over
     */
    abstract List<File> matchedIn();

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        File directory = directory();
        if (skip) {
            getLog().info("weft: weaving skipped");
            return;
        }
        if (!directory.isDirectory()) {
            getLog().info("weft: no classes in " + directory);
            return;
        }
        WeaveCommand.Report report;
        try {
            checkMatches(selection());
            report = WeaveCommand.weaveDirectory(directory.toPath(), packages);
        } catch (IOException e) {
            throw new MojoExecutionException("weft: " + e.getMessage(), e);
        }
        getLog().info("weft: wove " + report.woven() + " classes in " + directory);
        reportLeftAsCompiled(report);
    }

    /**
     * Warns of each class and method left as compiled, with why, and of how many there are;
     * fails the build instead if {@link #strict}.
     */
    private void reportLeftAsCompiled(WeaveCommand.Report report) throws MojoFailureException {
        if (report.left().isEmpty()) {
            return;
        }
        report.left().forEach(left -> getLog().warn("weft: " + left.describe()));
        String summary = "weft: " + report.summary() + "; a suspension inside one is refused at run time";
        if (strict) {
            throw new MojoFailureException(summary + " (<strict>true</strict>)");
        }
        getLog().warn(summary);
    }

    private ClassSelection selection() throws MojoExecutionException {
        try {
            return ClassSelection.of(packages);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("weft: <packages>: " + e.getMessage(), e);
        }
    }

    /**
     * Fails, or warns if {@link #failOnUnmatched} is false, for each entry that matches no class
     * in {@link #matchedIn}:
     * <pre>
     * weft: &lt;package&gt;com.exmple.flows&lt;/package&gt; matched no class in /p/target/classes; did you mean com.example.flows?
     * </pre>
     */
    private void checkMatches(ClassSelection selection) throws IOException, MojoFailureException {
        if (selection.isEverything()) {
            return;
        }
        List<File> directories = matchedIn().stream().filter(File::isDirectory).toList();
        List<String> classNames = new ArrayList<>();
        for (File directory : directories) {
            classNames.addAll(WeaveCommand.classNames(directory.toPath()));
        }
        String where = directories.stream().map(File::toString).collect(Collectors.joining(" or "));
        List<String> problems = selection.unmatched(classNames).stream()
                .map(entry -> "weft: <package>" + entry + "</package> matched no class in " + where
                        + ClassSelection.nearName(entry, classNames).map(near -> "; did you mean " + near + "?").orElse(""))
                .toList();
        if (problems.isEmpty()) {
            return;
        }
        if (failOnUnmatched) {
            throw new MojoFailureException(String.join("\n", problems) + "\nweft: to weave the rest anyway, with a warning,"
                    + " set <failOnUnmatched>false</failOnUnmatched> or -Dweft.weave.failOnUnmatched=false");
        }
        problems.forEach(getLog()::warn);
    }
}
