package dev.weft.contract;

import dev.weft.Engine;

/** Stack traces, dumps and JFR events on the native engine. */
class NativeDumpTest extends DumpContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
