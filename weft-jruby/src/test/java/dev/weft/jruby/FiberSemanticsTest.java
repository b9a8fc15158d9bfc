package dev.weft.jruby;

import dev.weft.jruby.RubyScripts.Fibers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Ruby-level tests of Weft's fibers: each script resource prints what it sees, and its
 * {@code .expected} resource is MRI 3.1's output of the same script (see the scripts' headers
 * for the one line where JRuby's wording differs).
 */
class FiberSemanticsTest {

    @ParameterizedTest
    @ValueSource(strings = {"semantics", "enumerator"})
    void scriptPrintsWhatMriPrints(String script) {
        assertEquals(RubyScripts.resource(script + ".expected"), RubyScripts.run(script + ".rb", Fibers.WEFT));
    }

    @Test
    void requireReplacesFiberAndKeepsJRubysOwn() {
        String out = RubyScripts.withRuntime(Fibers.WEFT, runtime -> runtime.evalScriptlet("""
                require 'weft/fiber'   # a second require changes nothing
                [Fiber.equal?(Weft::Fiber), Weft::JRubyFiber.equal?(Fiber), Fiber.name,
                 Weft::JRubyFiber.new { :own }.resume]
                """).inspect());
        assertEquals("[true, false, \"Fiber\", :own]", out);
    }

    @Test
    void enumeratorNextRunsOnWeftFibers() {
        String out = RubyScripts.withRuntime(Fibers.WEFT, runtime -> runtime.evalScriptlet("""
                e = Enumerator.new { |y| y << Fiber.current; y << Fiber.current }
                [e.next.class, e.next.equal?(Fiber.current)]
                """).inspect());
        assertEquals("[Fiber, false]", out);
    }

    @Test
    void fibersBelongToTheirThread() {
        String out = RubyScripts.withRuntime(Fibers.WEFT, runtime -> runtime.evalScriptlet("""
                here = Fiber.new { Fiber.yield :here; :again }
                here.resume
                from_other = Thread.new do
                  begin
                    here.resume
                  rescue FiberError => e
                    e.message
                  end
                end.value
                own = Thread.new { f = Fiber.new { |x| Fiber.yield(x + 1); :end }; [f.resume(1), f.resume] }.value
                [from_other, own, here.resume]
                """).inspect());
        assertEquals("[\"fiber called across threads\", [2, :end], :again]", out);
    }

    @Test
    void theRuntimesCurrentContextIsTheRunningFibersOwn() {
        String out = RubyScripts.withRuntime(Fibers.WEFT, runtime -> runtime.evalScriptlet("""
                require 'jruby'
                def context_id = java.lang.System.identityHashCode(JRuby.runtime.current_context)
                root = context_id
                inner = Fiber.new do
                  mine = context_id
                  Fiber.yield mine
                  nested = Fiber.new { context_id }.resume
                  [context_id == mine, nested != mine && nested != root]
                end
                first = inner.resume
                [first != root, context_id == root, inner.resume, context_id == root]
                """).inspect());
        assertEquals("[true, true, [true, true], true]", out);
    }

    @Test
    void aContextRefJRubySetsItselfIsReplacedAtTheNextSwitchFromTheRoot() {
        String out = RubyScripts.withRuntime(Fibers.WEFT, runtime -> runtime.evalScriptlet("""
                require 'jruby'
                def context_id = java.lang.System.identityHashCode(JRuby.runtime.current_context)
                f = Fiber.new { loop { Fiber.yield context_id } }
                mine = f.resume
                service = JRuby.runtime.thread_service
                service.set(java.lang.ref.SoftReference.new(JRuby.runtime.current_context))
                [f.resume == mine, context_id != mine]
                """).inspect());
        assertEquals("[true, true]", out);
    }

    @Test
    void thousandsOfFibersAtOnce() {
        String out = RubyScripts.withRuntime(Fibers.WEFT, runtime -> runtime.evalScriptlet("""
                fibers = Array.new(20_000) { |i| Fiber.new { Fiber.yield i; i * 2 } }
                a = fibers.sum(&:resume)
                b = fibers.sum(&:resume)
                [a, b, fibers.count(&:alive?)]
                """).inspect());
        assertEquals("[199990000, 399980000, 0]", out);
    }
}
