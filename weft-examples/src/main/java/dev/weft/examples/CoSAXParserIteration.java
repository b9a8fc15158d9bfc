package dev.weft.examples;

import java.io.PrintStream;

/**
 * Thesis figure 3.7: the {@link CoSAXParser} of figure 3.6, driven by an enhanced for loop.
 * Iteration produces only the values the parser {@code ret}s, so unlike figure 3.6 no final
 * {@code null} is printed. With an argument, it parses that file instead of the bundled
 * catalogue.
 */
public final class CoSAXParserIteration {

    private CoSAXParserIteration() {
    }

    public static void main(String[] args) {
        printElements(CoSAXParser.forArguments(args), System.out);
    }

    /** Figure 3.7's loop: one line per element. */
    public static void printElements(CoSAXParser parser, PrintStream out) {
        for (String element : parser) {
            out.println(element);
        }
    }
}
