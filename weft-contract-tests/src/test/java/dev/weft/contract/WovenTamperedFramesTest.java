package dev.weft.contract;

import dev.weft.Engine;

/** Tampered frames refused on the woven engine. */
class WovenTamperedFramesTest extends TamperedFramesContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
