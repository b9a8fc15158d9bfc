package dev.weft.bench.woven;

import dev.weft.AsymCoroutine;
import dev.weft.Coroutine;
import dev.weft.Engine;

/**
 * The bodies of the creation benchmark on the woven engine that end at once; those that suspend
 * are {@link SwitchMembers}'. The build weaves this package (see the pom).
 */
public final class CreationMembers {

    private CreationMembers() {
    }

    /** Returns its first input. */
    public static final class Returns extends AsymCoroutine<Object, Object> {
        public Returns() {
            super(Engine.WOVEN);
        }

        @Override
        protected Object run(Object first) {
            return first;
        }
    }

    /** Does nothing. */
    public static final class Ends extends Coroutine {
        public Ends() {
            super(Engine.WOVEN);
        }

        @Override
        protected void run() {
        }
    }
}
