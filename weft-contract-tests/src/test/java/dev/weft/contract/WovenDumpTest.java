package dev.weft.contract;

import dev.weft.Engine;

/** Stack traces, dumps and JFR events on the woven engine. */
class WovenDumpTest extends DumpContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
