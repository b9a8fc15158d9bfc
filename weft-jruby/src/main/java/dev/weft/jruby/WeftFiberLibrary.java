package dev.weft.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyModule;
import org.jruby.api.Access;
import org.jruby.api.Define;
import org.jruby.runtime.ThreadContext;
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

    /** The library, as {@code JRuby::Util.load_ext} makes it. */
    public WeftFiberLibrary() {
    }

    @Override
    public void load(Ruby runtime, boolean wrap) {
        ThreadContext context = runtime.getCurrentContext();
        RubyModule weft = Define.defineModule(context, "Weft");
        if (weft.getConstantAt(context, "Fiber") != null) {
            return;
        }
        RubyClass object = Access.objectClass(context);
        RubyClass jrubyFiber = (RubyClass) object.getConstantAt(context, "Fiber");
        object.deleteConstant(context, "Fiber");
        RubyClass fiber = Define.defineClass(context, "Fiber", object, WeftFiber::new);
        fiber.defineMethods(context, WeftFiber.class);
        weft.setConstant(context, "Fiber", fiber);
        if (jrubyFiber != null) {
            weft.setConstant(context, "JRubyFiber", jrubyFiber);
        }
    }

    /** The class of Weft's fibers in {@code context}'s runtime. */
    static RubyClass fiberClass(ThreadContext context) {
        return (RubyClass) Access.getModule(context, "Weft").getConstantAt(context, "Fiber");
    }
}
