package dev.weft.contract;

import dev.weft.Engine;

/** The linkage contract on the native engine. */
class NativeLinkageTest extends LinkageContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
