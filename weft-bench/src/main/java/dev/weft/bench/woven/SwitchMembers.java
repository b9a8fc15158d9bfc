package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.Engine;

/**
 * The coroutines of the switch benchmark (thesis figure 6.1) on the woven engine: the same
 * loops as the native ones, as named classes. The build weaves this package (see the pom).
 */
public final class SwitchMembers {

    private SwitchMembers() {
    }

    /** Loops on {@code Coroutine.yield()}. */
    public static final class Yielder extends Coroutine {
        public Yielder() {
            super(Engine.WOVEN);
        }

        @Override
        protected void run() {
            while (true) {
                Coroutine.yield();
            }
        }
    }

    /** Loops on {@code ret}, passing each input back out. */
    public static final class Echo extends AsymCoroutine<Object, Object> {
        public Echo() {
            super(Engine.WOVEN);
        }

        @Override
        protected Object run(Object first) {
            Object in = first;
            while (true) {
                in = ret(in);
            }
        }
    }
}
