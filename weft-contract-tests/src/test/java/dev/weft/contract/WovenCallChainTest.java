package dev.weft.contract;

import dev.weft.Engine;
import org.junit.jupiter.api.Test;

/**
 * The call-chain contract on the woven engine, and what only it promises: a call made from woven
 * code by an asymmetric coroutine does not nest the callee on the caller's frames, so a chain
 * of calls takes the same room on the thread's stack at any length.
 */
class WovenCallChainTest extends CallChainContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }

    @Test
    void aChainOfAHundredThousandCallsRunsOnAHalfMegabyteStack() throws Throwable {
        onThreadWithStack(512L << 10, () -> sendThroughAChainOf(100_000)); // nested, about 120 MB
    }
}
