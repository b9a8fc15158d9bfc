package dev.weft.contract.linkage;

import dev.weft.AsymCoroutine;

/** An interface whose static, private and default methods each suspend the coroutine they are given. */
public interface Asking {

    /** Called as {@code Asking.askStatic}: an {@code invokestatic} of an interface method. */
    static String askStatic(AsymCoroutine<? extends String, ? super String> co) {
        return "static=" + co.ret("interface static");
    }

    /** Calls {@link #askPrivately}, a private interface method. */
    default String askThroughPrivate(AsymCoroutine<? extends String, ? super String> co) {
        return askPrivately(co);
    }

    /** Called by an implementation as {@code Asking.super.askDefault}. */
    default String askDefault(AsymCoroutine<? extends String, ? super String> co) {
        return "default=" + co.ret("default through super");
    }

    private String askPrivately(AsymCoroutine<? extends String, ? super String> co) {
        return "private=" + co.ret("interface private");
    }
}
