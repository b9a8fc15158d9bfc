package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code Examples.main} runs every example, in order, each under its heading. */
class ExamplesTest extends LeftoverCheck {

    @Test
    void runsEveryExampleUnderItsHeading() {
        List<String> expected = new ArrayList<>();
        expected.add("== Figure 3.2: a Coroutine subclass");
        expected.addAll(SymmetricFiguresTest.EXPECTED);
        expected.add("== Figure 3.3: a Runnable given to new Coroutine(...)");
        expected.addAll(SymmetricFiguresTest.EXPECTED);
        expected.add("== Figure 3.6: SAX parser inversion, call loop");
        expected.addAll(CoSAXParserTest.FIGURE_3_6);
        expected.add("== Figure 3.7: SAX parser inversion, enhanced for loop");
        expected.addAll(CoSAXParserTest.FIGURE_3_6);
        expected.add("== Section 5.1: machine control");
        expected.addAll(MachineControlTest.EXPECTED);
        expected.add("== Same fringe (Mateu 1992, section 9)");
        expected.addAll(SameFringeTest.EXPECTED);
        expected.add("== Producer/consumer: symmetric coroutines, one-slot buffer");
        expected.addAll(ProducerConsumerTest.EXPECTED);
        expected.add("== Producer/consumer: asymmetric generator");
        expected.addAll(ProducerConsumerTest.EXPECTED);
        expected.add("== Section 5.2: session persistence, the interaction stored to a file between steps");
        expected.addAll(List.of("> java Questions", "Please enter your name:",
                "> java Questions \"John Doe\"", "Please enter your country:",
                "> java Questions \"Genovia\"", "Please enter your age:",
                "> java Questions \"twenty-eight\"", "Please enter your age:", "Please enter a valid number!",
                "> java Questions \"28\"", "Please enter your email address:",
                "> java Questions \"nospam@nospam.at\"", "Name: John Doe, Country: Genovia, Age: 28, Email: nospam@nospam.at"));
        expected.add("== Section 5.2 again, as a durable session: no answer within a day, a worker sends a reminder");
        expected.addAll(RemindersTest.EXPECTED);
        expected.add("== Durable sessions: two forms on the web, each request resuming the visitor's session from SQLite");
        expected.addAll(WebTourTest.EXPECTED);
        expected.add("== The woven engine: a relay of woven coroutines, and a generator moved between the engines");
        expected.addAll(WovenEngineExampleTest.EXPECTED);

        assertEquals(Output.text(expected), Output.ofMain(() -> {
            try {
                Examples.main(new String[0]);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }));
    }
}
