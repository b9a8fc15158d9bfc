package dev.weft.bench;

/**
 * What one measurement produced: a median with its unit and the number of samples behind it,
 * or, when it could not be measured, why not.
 */
record Outcome(double value, String unit, int samples, String failure) {

    static Outcome measured(double value, String unit, int samples) {
        return new Outcome(value, unit, samples, null);
    }

    static Outcome failed(String why) {
        return new Outcome(Double.NaN, "", 0, why);
    }

    boolean ok() {
        return failure == null;
    }

    /** This value divided by {@code baseline}'s, or NaN unless both were measured. */
    double ratioTo(Outcome baseline) {
        return ok() && baseline != null && baseline.ok() ? value / baseline.value : Double.NaN;
    }

    /** The same outcome with the value transformed (a unit change, a difference): failures stay. */
    Outcome map(java.util.function.DoubleUnaryOperator f, String newUnit) {
        return ok() ? new Outcome(f.applyAsDouble(value), newUnit, samples, null) : this;
    }
}
