package dev.weft.jruby;

import org.jruby.Ruby;
import org.jruby.RubyInstanceConfig;
import org.jruby.RubyInstanceConfig.CompileMode;
import org.jruby.RubyThread;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/** Runs Ruby scripts on a fresh JRuby runtime, with Weft's fibers or JRuby's own, and returns what they print. */
final class RubyScripts {

    private RubyScripts() {
    }

    /** Which fibers a script runs on. */
    enum Fibers {
        /** {@code require 'weft/fiber'} first: ::Fiber is Weft's. */
        WEFT,
        /** JRuby's own, on virtual threads. */
        JRUBY
    }

    /** The text of a resource of this package, such as {@code "semantics.rb"}. */
    static String resource(String name) {
        try (InputStream in = RubyScripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + name + " beside " + RubyScripts.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the script resource {@code name} (see {@link #execute}) and returns its standard output (and error). */
    static String run(String name, Fibers fibers) {
        return withRuntime(fibers, runtime -> {
            execute(runtime, name);
            return null;
        });
    }

    /**
     * Runs the script resource {@code name} on {@code runtime}, named by its class-loader URI so
     * that its {@code require_relative} finds the resources beside it.
     */
    static void execute(Ruby runtime, String name) {
        runtime.executeScript(resource(name), "uri:classloader:/dev/weft/jruby/" + name);
    }

    /**
     * Runs {@code work} on a fresh runtime whose output it captures, then tears the runtime down.
     * Returns the output, with what {@code work} returned (if not null) after it.
     */
    static String withRuntime(Fibers fibers, Function<Ruby, Object> work) {
        return withRuntime(fibers, new RubyInstanceConfig().getCompileMode(), work);
    }

    /** As {@link #withRuntime(Fibers, Function)}, on a runtime that compiles Ruby code as {@code mode} says. */
    static String withRuntime(Fibers fibers, CompileMode mode, Function<Ruby, Object> work) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        RubyInstanceConfig config = new RubyInstanceConfig();
        config.setCompileMode(mode);
        config.setOutput(print);
        config.setError(print);
        // The background compiler's thread is adopted into the runtime's map of Ruby threads,
        // which it may touch while teardown walks that map (see endOtherThreads); compiling on
        // the calling thread leaves no such thread.
        config.setJitBackground(false);
        Ruby runtime = Ruby.newInstance(config);
        try {
            if (fibers == Fibers.WEFT) {
                runtime.evalScriptlet("require 'weft/fiber'");
            }
            Object result = work.apply(runtime);
            print.flush();
            return out.toString(StandardCharsets.UTF_8) + (result == null ? "" : result);
        } finally {
            endOtherThreads(runtime);
            runtime.tearDown(false);
        }
    }

    /**
     * Kills the runtime's other Ruby threads (JRuby's own fibers each run on one) and waits until
     * each has ended. JRuby's teardown kills and joins them too, but then walks its map of Ruby
     * threads unsynchronized while a thread it joined may still be taking itself out of that map:
     * a ConcurrentModificationException in ThreadService.teardown, now and then.
     */
    private static void endOtherThreads(Ruby runtime) {
        RubyThread self = runtime.getCurrentContext().getThread();
        for (RubyThread thread : runtime.getThreadService().getActiveRubyThreads()) {
            if (thread == self || thread.isAdopted()) {
                continue;
            }
            thread.kill();
            Thread javaThread = thread.getNativeThread();
            if (javaThread != null) {
                try {
                    javaThread.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted waiting for " + javaThread, e);
                }
            }
        }
    }
}
