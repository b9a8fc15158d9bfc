package dev.weft.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyModule;
import org.jruby.runtime.load.Library;

/**
 * Installs {@link WeftFiber} in a JRuby runtime: defines {@code Weft::Fiber}, keeps JRuby's own
 * fiber class as {@code Weft::JRubyFiber}, and makes {@code ::Fiber} Weft's. What
 * {@code require 'weft/fiber'} runs (through {@code JRuby::Util.load_ext}); loading it again
 * does nothing.
 *
 * <p>Only code that looks {@code Fiber} up by name after the require gets Weft's fibers: the
 * program, its libraries, and JRuby's {@code Enumerator#next}. A fiber made before the require
 * stays one of JRuby's. Call from the runtime's thread, before the program makes fibers.
 */
public final class WeftFiberLibrary implements Library {

    @Override
    public void load(Ruby runtime, boolean wrap) {
        RubyModule weft = runtime.defineModule("Weft");
        if (weft.getConstantAt("Fiber") != null) {
            return;
        }
        RubyClass object = runtime.getObject();
        RubyClass jrubyFiber = (RubyClass) object.getConstantAt("Fiber");
        object.deleteConstant("Fiber");
        RubyClass fiber = runtime.defineClass("Fiber", object, WeftFiber::new);
        fiber.defineAnnotatedMethods(WeftFiber.class);
        weft.setConstant("Fiber", fiber);
        if (jrubyFiber != null) {
            weft.setConstant("JRubyFiber", jrubyFiber);
        }
    }

    /** The class of Weft's fibers in {@code runtime}. */
    static RubyClass fiberClass(Ruby runtime) {
        return (RubyClass) runtime.getModule("Weft").getConstantAt("Fiber");
    }
}
