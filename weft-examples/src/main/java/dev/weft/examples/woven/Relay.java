package dev.weft.examples.woven;

import dev.weft.Coroutine;
import dev.weft.Engine;

/**
 * A member of a relay chain on the woven engine: adds one to the baton and passes control on
 * to the next member with {@code yieldTo}. The build weaves this package (see the pom).
 */
public final class Relay extends Coroutine {

    /** What the members pass along. */
    public static final class Baton {
        public int value;
    }

    private final Baton baton;
    private final Coroutine next;

    public Relay(Baton baton, Coroutine next) {
        super(Engine.WOVEN);
        this.baton = baton;
        this.next = next;
    }

    @Override
    protected void run() {
        while (true) {
            baton.value++;
            Coroutine.yieldTo(next);
        }
    }
}
