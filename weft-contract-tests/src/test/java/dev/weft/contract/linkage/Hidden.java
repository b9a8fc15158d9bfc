package dev.weft.contract.linkage;

import dev.weft.AsymCoroutine;

/**
 * Not public: its public methods are reached from other packages only through {@link Facade},
 * the shape of Kotlin's facade classes ({@code CollectionsKt} inherits its functions so).
 */
abstract class Hidden {

    /** Asks {@code question} and returns it with the answer. */
    public static String ask(AsymCoroutine<? extends String, ? super String> co, String question) {
        String answer = co.ret(question);
        return question + "=" + answer;
    }

    /** Asks for a name and greets it. */
    public String greet(AsymCoroutine<? extends String, ? super String> co) {
        return "hello " + co.ret("name?");
    }
}
