package dev.weft.examples;

import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic stand-in for the machine-specific heater of thesis section 5.1: each cycle
 * the temperature rises by a fixed amount while the heater is enabled and falls by a fixed
 * amount while it is disabled. It logs every switch and records the temperature of every cycle.
 */
public final class SimulatedHeater implements Heater {

    private final double risePerCycle;
    private final double fallPerCycle;
    private final MachineLog log;
    private final List<Double> history = new ArrayList<>();
    private double temperature;
    private boolean enabled;

    public SimulatedHeater(double startTemperature, double risePerCycle, double fallPerCycle, MachineLog log) {
        this.temperature = startTemperature;
        this.risePerCycle = risePerCycle;
        this.fallPerCycle = fallPerCycle;
        this.log = log;
    }

    /** Advances one cycle: heats or cools by the fixed amount. */
    public void step() {
        temperature += enabled ? risePerCycle : -fallPerCycle;
        history.add(temperature);
    }

    @Override
    public double getTemperature() {
        return temperature;
    }

    @Override
    public void enable() {
        if (enabled) {
            throw new IllegalStateException("heater enabled twice");
        }
        enabled = true;
        log.event("heater on, temperature " + MachineLog.format(temperature));
    }

    @Override
    public void disable() {
        if (!enabled) {
            throw new IllegalStateException("heater disabled twice");
        }
        enabled = false;
        log.event("heater off, temperature " + MachineLog.format(temperature));
    }

    public boolean isEnabled() {
        return enabled;
    }

    /** The temperature after each cycle's step: element 0 is cycle 1's. */
    public List<Double> history() {
        return List.copyOf(history);
    }
}
