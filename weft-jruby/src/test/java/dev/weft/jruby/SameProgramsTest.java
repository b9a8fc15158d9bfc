package dev.weft.jruby;

import dev.weft.jruby.RubyScripts.Fibers;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The same Ruby fiber programs (the benchmark's fiber chain and same-fringe, a generator, fibers
 * switching inside Java callbacks) on JRuby's own fibers and on Weft's: both print exactly the
 * {@code .expected} resource: what MRI 3.1 prints, or for {@code java_callbacks}, which needs
 * JRuby's Java integration, what JRuby 10.1 prints on its own fibers.
 */
class SameProgramsTest {

    @ParameterizedTest
    @ValueSource(strings = {"fiber_chain", "generator", "same_fringe", "java_callbacks"})
    void weftAndJRubyPrintTheSame(String program) {
        String expected = RubyScripts.resource(program + ".expected");
        String onJRuby = RubyScripts.run(program + ".rb", Fibers.JRUBY);
        String onWeft = RubyScripts.run(program + ".rb", Fibers.WEFT);
        assertEquals(expected, onJRuby, "JRuby's own fibers");
        assertEquals(onJRuby, onWeft, "Weft's fibers against JRuby's own");
    }
}
