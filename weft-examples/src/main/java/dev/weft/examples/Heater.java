package dev.weft.examples;

/**
 * Thesis section 5.1.1, {@code Heater.java}: the heater of the injection molding machine. It
 * can report the current temperature of the molten material and be switched on and off.
 */
public interface Heater {

    public double getTemperature();

    public void enable();
    public void disable();
}
