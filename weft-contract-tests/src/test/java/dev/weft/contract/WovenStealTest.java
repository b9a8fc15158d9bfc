package dev.weft.contract;

import dev.weft.Engine;

/** The steal contract on the woven engine. */
class WovenStealTest extends StealContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }

    /**
     * Never, on any JDK: a woven frame unwinds by returning, which would release its monitor
     * without the synchronized block's knowing, and could not take it again on another thread.
     */
    @Override
    boolean suspendsHoldingAMonitor() {
        return false;
    }

    /** The woven engine refuses where the ret is made, naming the coroutine and the frame that holds the monitor. */
    @Override
    void expectMonitorRefusal(String refusal, Class<?> body) {
        assertMentions(refusal, "cannot suspend holder [running, thread ", "on the woven engine: the woven frame "
                + body.getName() + ".run(StealContract.java:", "suspends while it holds a monitor (synchronized)",
                "nothing was suspended");
    }
}
