package dev.weft.examples;

import dev.weft.Coroutine;

import java.io.PrintStream;

/**
 * Thesis section 5.1, machine control: the {@link HeaterControl} and {@link InjectionControl}
 * coroutines run a simulated injection molding machine. The main program is the cycle loop:
 * each cycle it advances the simulation one step and then {@code Coroutine.yield()}s, which runs
 * every control coroutine once (each yields back at its next wait) before control returns to
 * the loop. The loop stops when the injection control has ejected the part and finished; the
 * heater control, an endless loop, is then closed.
 *
 * <p>Within a cycle the injection control runs before the heater control: each new coroutine
 * is inserted right after the current one, and the heater control is created first.
 */
public final class MachineControl {

    /** The simulation's parameters: degrees, degrees per cycle, mold units and volume per cycle. */
    public static final double START_TEMPERATURE = 50;
    public static final double HEATING_PER_CYCLE = 3;
    public static final double COOLING_PER_CYCLE = 1;
    public static final double MOLD_STEP_PER_CYCLE = 20;
    public static final double VOLUME_PER_CYCLE = 20;

    /** A safety net: a machine that has not produced its part by then is broken. */
    static final int MAX_CYCLES = 1_000;

    private MachineControl() {
    }

    public static void main(String[] args) {
        produce(System.out);
    }

    /** Produces one part on a machine built from the parameters above, printing each event. */
    public static int produce(PrintStream out) {
        MachineLog log = new MachineLog(out);
        SimulatedHeater heater = new SimulatedHeater(START_TEMPERATURE, HEATING_PER_CYCLE, COOLING_PER_CYCLE, log);
        SimulatedInjection injection =
                new SimulatedInjection(SimulatedInjection.OPEN, MOLD_STEP_PER_CYCLE, VOLUME_PER_CYCLE, log);
        return produce(heater, injection, log);
    }

    /**
     * Runs the cycle loop until the part is ejected, and closes the control coroutines.
     *
     * @return the cycle in which the part was ejected
     */
    public static int produce(SimulatedHeater heater, SimulatedInjection injection, MachineLog log) {
        HeaterControl heaterControl = new HeaterControl(heater);
        InjectionControl injectionControl = new InjectionControl(injection, heater);
        try {
            while (!injectionControl.isFinished()) {
                if (log.cycle() == MAX_CYCLES) {
                    throw new IllegalStateException("no part after " + MAX_CYCLES + " cycles");
                }
                log.nextCycle();
                heater.step();
                injection.step();
                Coroutine.yield();
            }
            return log.cycle();
        } finally {
            heaterControl.close();
            injectionControl.close();
        }
    }
}
