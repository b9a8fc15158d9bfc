package dev.weft.contract;

import dev.weft.Engine;
import org.junit.jupiter.api.Test;

/**
 * The call-chain contract on the woven engine, and what only it promises: past a few hundred
 * nested runs, a call made from woven code by an asymmetric coroutine does not nest the callee
 * on the caller's frames, so a chain of calls takes bounded room on the thread's stack at any
 * length.
 */
class WovenCallChainTest extends CallChainContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }

    @Test
    void aChainOfAHundredThousandCallsRunsOnATwoMegabyteStack() throws Throwable {
        onThreadWithStack(2L << 20, () -> sendThroughAChainOf(100_000)); // nested, over 100 MB
    }
}
