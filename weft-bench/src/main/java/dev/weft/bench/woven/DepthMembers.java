package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/**
 * The coroutines of {@code DepthSwitchBenchmark} on the woven engine: {@code depth} woven frames
 * below the body, {@code depth} 0 meaning that the body itself suspends. The build weaves this
 * package (see the pom); {@code dev.weft.bench.DepthSwitchBenchmark} has the same code unwoven
 * for the native engine.
 */
public final class DepthMembers {

    private DepthMembers() {
    }

    /** Calls down {@code depth} frames once, and loops there on {@code ret}: the frames below stay put. */
    public static final class Parked extends AsymCoroutine<Object, Object> {
        private final int depth;

        public Parked(int depth) {
            super(Engine.WOVEN);
            this.depth = depth;
        }

        @Override
        protected Object run(Object first) {
            return down(depth, first);
        }

        private Object down(int remaining, Object in) {
            if (remaining == 0) {
                Object x = in;
                while (true) {
                    x = ret(x);
                }
            }
            return down(remaining - 1, in);
        }
    }

    /** Calls down {@code depth} frames, {@code ret}s there, and returns back up to the body, for each call. */
    public static final class RoundTrip extends AsymCoroutine<Object, Object> {
        private final int depth;

        public RoundTrip(int depth) {
            super(Engine.WOVEN);
            this.depth = depth;
        }

        @Override
        protected Object run(Object first) {
            Object in = first;
            while (true) {
                in = down(depth, in);
            }
        }

        private Object down(int remaining, Object in) {
            if (remaining == 0) {
                return ret(in);
            }
            return down(remaining - 1, in);
        }
    }
}
