package dev.weft.contract.linkage;

import dev.weft.AsymCoroutine;

/**
 * A generic base class whose code calls its abstract method, which classes of another package
 * implement (javac gives them a bridge): the woven engine dispatches the call by the receiver's
 * class to the implementation's twin, private as every twin is.
 */
public abstract class Template<T> {

    public String render(AsymCoroutine<? extends String, ? super String> co, T value) {
        return "[" + fill(co, value) + "]";
    }

    protected abstract String fill(AsymCoroutine<? extends String, ? super String> co, T value);
}
