package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Thesis section 5.1: the thesis's control coroutines run the simulated machine. The expected
 * transcripts are worked out by hand from the simulation's rules (each cycle: the simulation
 * steps, then the injection control runs, then the heater control), as the comments show.
 */
class MachineControlTest extends LeftoverCheck {

    /*
     * Start 50 degrees, heater off; +3 per cycle while on, -1 while off. Mold open (100),
     * 20 units per cycle; 20 volume units per cycle while injecting.
     *
     * cycle 1:  T = 49. Injection control targets the closed mold; heater control sees 49 < 75: on.
     *           From then on T(c) = 49 + 3(c - 1).
     * cycles 2-6: mold 80, 60, 40, 20, 0: closed in cycle 6; T(6) = 64 < 70, so injection waits.
     * cycle 8:  T = 70: injection starts. Volume 20 in cycle 9 ... 100 in cycle 13.
     * cycle 12: T = 82 >= 80 (79 in cycle 11): heater off. T(c) = 82 - (c - 12).
     * cycle 13: volume 100: injection stops; 10 yields, in cycles 13 to 22.
     * cycle 20: T = 74 < 75 (75 in cycle 19): heater on. cycle 21: 77; cycle 22: 80: heater off.
     * cycle 23: the mold is told to open: 20, 40, 60, 80, 100 in cycles 24 to 28.
     * cycle 28: mold open, part ejected, injection control finishes and passes control on to
     *           the heater control, which sees T = 80 - 6 = 74: heater on.
     */
    static final List<String> EXPECTED = List.of(
            "cycle 1: closing mold",
            "cycle 1: heater on, temperature 49.0",
            "cycle 6: mold closed",
            "cycle 8: injection started, volume 0.0",
            "cycle 12: heater off, temperature 82.0",
            "cycle 13: injection stopped, volume 100.0",
            "cycle 20: heater on, temperature 74.0",
            "cycle 22: heater off, temperature 80.0",
            "cycle 23: opening mold",
            "cycle 28: mold open",
            "cycle 28: part ejected",
            "cycle 28: heater on, temperature 74.0");

    @Test
    void mainPrintsTheExactTranscript() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> MachineControl.main(new String[0])));
    }

    @Test
    void thePartIsEjectedInCycle28AndTheHeaterStaysWithinItsBandOnceWarm() {
        Machine machine = new Machine(50, 3, 1);
        String transcript = Output.of(out -> {
            machine.build(out);
            assertEquals(28, MachineControl.produce(machine.heater, machine.injection, machine.log));
        });
        assertEquals(Output.text(EXPECTED), transcript);
        assertEquals(1, machine.injection.partsEjected());
        assertEquals(SimulatedInjection.OPEN, machine.injection.getPosition());
        assertEquals(100.0, machine.injection.getVolume());

        List<Double> temperatures = machine.heater.history();
        assertEquals(28, temperatures.size(), "one simulation step per cycle");
        int warm = firstAtLeast(temperatures, 75);
        assertEquals(10 - 1, warm, "first reaches 75 in cycle 10 (76 degrees)");
        for (int i = warm; i < temperatures.size(); i++) {
            double t = temperatures.get(i);
            // switched on below 75 (so at 74 at the least) and off at 80 or more (82 at most: 79 + 3)
            assertTrue(t >= 74 && t <= 82, "cycle " + (i + 1) + ": " + t);
        }
        assertEquals(70.0, temperatures.get(8 - 1), "injection started at the first cycle at 70 degrees");
    }

    /*
     * A hot machine: start 90, heater off, so T(c) = 90 - c. Heater control waits until cycle 16
     * (74): on; 77, 80 in cycle 18: off; 79 ... 74 in cycle 24: on; 77, 80 in cycle 26: off.
     * The mold closes in cycle 6 at 84 >= 70, so injection starts at once: volume 100 in cycle 11,
     * stop; yields in cycles 11 to 20; opening in cycle 21; open in cycle 26.
     */
    @Test
    void aHotMachineInjectsAsSoonAsTheMoldIsClosed() {
        Machine machine = new Machine(90, 3, 1);
        String transcript = Output.of(out -> {
            machine.build(out);
            assertEquals(26, MachineControl.produce(machine.heater, machine.injection, machine.log));
        });
        assertEquals(Output.text(
                "cycle 1: closing mold",
                "cycle 6: mold closed",
                "cycle 6: injection started, volume 0.0",
                "cycle 11: injection stopped, volume 100.0",
                "cycle 16: heater on, temperature 74.0",
                "cycle 18: heater off, temperature 80.0",
                "cycle 21: opening mold",
                "cycle 24: heater on, temperature 74.0",
                "cycle 26: mold open",
                "cycle 26: part ejected",
                "cycle 26: heater off, temperature 80.0"), transcript);
        assertFalse(machine.heater.isEnabled());
    }

    @Test
    void aHeaterThatCannotHeatStopsTheLoopAndBothControlsAreClosed() {
        Machine machine = new Machine(50, 0, 1);
        String transcript = Output.of(out -> {
            machine.build(out);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> MachineControl.produce(machine.heater, machine.injection, machine.log));
            assertEquals("no part after " + MachineControl.MAX_CYCLES + " cycles", e.getMessage());
        });
        // stuck at 49 degrees: the injection control waits for 70 for ever
        assertEquals(Output.text(
                "cycle 1: closing mold",
                "cycle 1: heater on, temperature 49.0",
                "cycle 6: mold closed"), transcript);
        assertEquals(0, machine.injection.partsEjected());
        assertEquals(MachineControl.MAX_CYCLES, machine.log.cycle());
    }

    private static int firstAtLeast(List<Double> values, double limit) {
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) >= limit) {
                return i;
            }
        }
        return -1;
    }

    /** A simulated machine with the example's mold and injection, and the given heater. */
    private static final class Machine {
        final double start;
        final double rise;
        final double fall;
        MachineLog log;
        SimulatedHeater heater;
        SimulatedInjection injection;

        Machine(double start, double rise, double fall) {
            this.start = start;
            this.rise = rise;
            this.fall = fall;
        }

        void build(PrintStream out) {
            log = new MachineLog(out);
            heater = new SimulatedHeater(start, rise, fall, log);
            injection = new SimulatedInjection(SimulatedInjection.OPEN,
                    MachineControl.MOLD_STEP_PER_CYCLE, MachineControl.VOLUME_PER_CYCLE, log);
        }
    }
}
