package dev.weft.jdk17.loadtime;

import dev.weft.AsymCoroutine;
import dev.weft.Engine;

/**
 * Counts down from what it is first called with, on the woven engine. The build does not weave
 * this package: the woven engine runs it only when the agent has woven it as it loaded.
 */
public final class Countdown extends AsymCoroutine<Integer, String> {

    public Countdown() {
        super(Engine.WOVEN);
    }

    @Override
    protected String run(Integer from) {
        for (int i = from; i > 0; i--) {
            tick(i);
        }
        return "liftoff";
    }

    private void tick(int i) {
        ret(String.valueOf(i));
    }
}
