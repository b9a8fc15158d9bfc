package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;
import java.lang.reflect.Method;

/**
 * Answers each input with itself, suspended two frames deep, and keeps a {@link Method} of a class
 * that is not woven in a local: a method in a slot, not a frame.
 */
public final class Echo implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        return loop(self, first);
    }

    private static String loop(AsymCoroutine<? extends String, ? super String> self, String first) {
        Method unrelated;
        try {
            unrelated = String.class.getMethod("strip");
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        String input = first;
        while (unrelated != null) {
            input = self.ret(input);
        }
        return input;
    }
}
