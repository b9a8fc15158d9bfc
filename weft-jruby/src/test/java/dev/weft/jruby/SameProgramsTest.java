package dev.weft.jruby;

import dev.weft.jruby.RubyScripts.Fibers;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The same Ruby fiber programs (the benchmark's fiber chain and same-fringe, a generator) on
 * JRuby's own fibers and on Weft's: both print exactly what MRI 3.1 prints (the
 * {@code .expected} resources).
 */
class SameProgramsTest {

    @ParameterizedTest
    @ValueSource(strings = {"fiber_chain", "generator", "same_fringe"})
    void weftAndJRubyPrintTheSame(String program) {
        String expected = RubyScripts.resource(program + ".expected");
        String onJRuby = RubyScripts.run(program + ".rb", Fibers.JRUBY);
        String onWeft = RubyScripts.run(program + ".rb", Fibers.WEFT);
        assertEquals(expected, onJRuby, "JRuby's own fibers");
        assertEquals(onJRuby, onWeft, "Weft's fibers against JRuby's own");
    }
}
