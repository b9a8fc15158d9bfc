package dev.weft.contract;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/**
 * Runs {@link ThrownTraceContract}'s scenario on the engine its argument names and prints the
 * trace of the exception that {@code call()} throws, for the test of the raw-traces property,
 * which is read once per JVM.
 */
final class ThrownTraceMain {

    private ThrownTraceMain() {
    }

    public static void main(String[] args) {
        AsymCoroutine<Object, Object> co = new AsymCoroutine<>(new ThrownTraceContract.Scenario(), Engine.valueOf(args[0]));
        co.call(false);
        try {
            co.call(null);
            throw new AssertionError("no exception");
        } catch (IllegalStateException e) {
            e.printStackTrace(System.out);
        }
    }
}
