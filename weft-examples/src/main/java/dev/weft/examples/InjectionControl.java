package dev.weft.examples;

import dev.weft.Coroutine;

/**
 * Thesis section 5.1.1, {@code InjectionControl.java}: produces one part. It closes the mold,
 * waits for the heater to reach 70 degrees, injects 100 units of material, lets the part cool
 * for 10 cycles, opens the mold and ejects the part, then finishes. Every wait is one
 * {@code Coroutine.yield()} per cycle.
 */
public class InjectionControl extends Coroutine {
    private final Injection injection;
    private final Heater heater;

    public InjectionControl(Injection injection, Heater heater) {
        this.injection = injection;
        this.heater = heater;
    }

    @Override
    protected void run() {
        double initialVolume = injection.getVolume();

        // close the mold
        injection.setTargetPosition(0);
        while (injection.getPosition() > 0)
            Coroutine.yield();

        // wait until the heater has reached the minimum temperature
        while (heater.getTemperature() < 70)
            Coroutine.yield();

        // start injecting
        injection.startInjection();

        // wait until 100 units have been injected, then stop
        while (injection.getVolume() < initialVolume + 100)
            Coroutine.yield();
        injection.stopInjection();

        // wait 10 cycles, i.e., 10 ms
        for (int i = 0; i < 10; i++)
            Coroutine.yield();

        // open the mold
        injection.setTargetPosition(100);
        while (injection.getPosition() < 100)
            Coroutine.yield();

        // finally: eject the new part
        injection.ejectPart();
    }
}
