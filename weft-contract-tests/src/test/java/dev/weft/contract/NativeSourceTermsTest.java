package dev.weft.contract;

import dev.weft.Engine;

/** Refusals in source terms on the native engine. */
class NativeSourceTermsTest extends SourceTermsContract {

    @Override
    Engine engine() {
        return Engine.NATIVE;
    }
}
