package dev.weft.examples;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The clock and event log of the simulated machine of thesis section 5.1: the number of the
 * current cycle, and one printed line per event, prefixed with it.
 */
public final class MachineLog {

    private final PrintStream out;
    private int cycle;

    public MachineLog(PrintStream out) {
        this.out = out;
    }

    /** The current cycle: 0 before the first one, then 1, 2, ... */
    public int cycle() {
        return cycle;
    }

    /** Starts the next cycle. */
    void nextCycle() {
        cycle++;
    }

    /** Prints {@code cycle N: event}. */
    void event(String event) {
        out.println("cycle " + cycle + ": " + event);
    }

    /** A temperature, volume or position as printed: one decimal, whatever the locale. */
    static String format(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
