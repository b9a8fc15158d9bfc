package dev.weft.contract;

import dev.weft.Engine;

/** Refusals in source terms on the woven engine. */
class WovenSourceTermsTest extends SourceTermsContract {

    @Override
    Engine engine() {
        return Engine.WOVEN;
    }
}
