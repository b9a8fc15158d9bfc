package dev.weft.examples;

import java.io.PrintStream;

/**
 * Thesis figure 3.7: the {@link CoSAXParser} of figure 3.6, driven by an enhanced for loop.
 * Iteration is the call loop written another way, so it prints the same lines as figure 3.6,
 * the final {@code null} that the parser's {@code run} returns included. With an argument, it
 * parses that file instead of the bundled catalogue.
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
