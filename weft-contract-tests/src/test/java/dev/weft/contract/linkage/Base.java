package dev.weft.contract.linkage;

import dev.weft.AsymCoroutine;

/** A public class whose protected method a subclass in another package calls on itself. */
public class Base {

    protected String askProtected(AsymCoroutine<? extends String, ? super String> co) {
        return "protected=" + co.ret("protected across packages");
    }
}
