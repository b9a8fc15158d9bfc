package dev.weft.contract;

import dev.weft.Engine;

/** Tampered frames refused on the native engine. */
class NativeTamperedFramesTest extends TamperedFramesContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
