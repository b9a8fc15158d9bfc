package dev.weft.examples;

import dev.weft.Coroutine;

/**
 * Thesis section 5.1.1, {@code HeaterControl.java}: keeps the heater between 75 and 80 degrees.
 * It waits, one cycle per {@code yield}, for the temperature to fall below 75, enables the
 * heater, waits for it to reach 80, disables it, and so on for ever; whoever runs the machine
 * closes it when the machine stops.
 */
public class HeaterControl extends Coroutine {
    private final Heater heater;

    public HeaterControl(Heater heater) {
        this.heater = heater;
    }

    @Override
    protected void run() {
        while (true) {
            // wait until temperature falls below lower threshold
            while (heater.getTemperature() >= 75)
                Coroutine.yield();

            // enable heater
            heater.enable();

            // wait until temperature is at upper threshold
            while (heater.getTemperature() < 80)
                Coroutine.yield();

            // disable heater
            heater.disable();
        }
    }
}
