package dev.weft.examples;

/**
 * Thesis section 5.1.1, {@code Injection.java}: the mold and injection unit. It reports the
 * total volume of material injected so far and the position of the movable part of the mold
 * (0 = closed, 100 = open); a target position set the mold moving towards it at once.
 */
public interface Injection {

    public double getVolume();

    public double getPosition();

    public void setTargetPosition(double pos);

    public void startInjection();
    public void stopInjection();

    public void ejectPart();
}
