package dev.weft.jruby;

import dev.weft.jruby.RubyScripts.Fibers;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Fibers that are never finished are collected with their stacks once nothing refers to them,
 * and their thread lives on (a collected fiber's JRuby context must not dispose of the thread).
 */
class FiberCollectionTest {

    @Test
    void unfinishedFibersAreCollected() {
        String out = RubyScripts.withRuntime(Fibers.WEFT, runtime -> runtime.evalScriptlet("""
                def dig(n, payload) = n.zero? ? Fiber.yield(payload.size) : dig(n - 1, payload)
                refs = Array.new(200) do
                  f = Fiber.new { dig(50, Array.new(10_000, :x)) }   # suspended 50 calls deep, holding 80 kB
                  f.resume
                  java.lang.ref.WeakReference.new(f)
                end
                tries = 0
                while refs.any? { |r| r.get } && tries < 50
                  java.lang.System.gc   # JRuby 10's GC.start does nothing
                  sleep 0.01
                  tries += 1
                end
                # the thread still works, fibers too
                [refs.count { |r| r.get }, Thread.current.alive?, Fiber.new { :ok }.resume]
                """).inspect());
        assertEquals("[0, true, :ok]", out);
    }
}
