package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;

/**
 * A child's work, told by its first input {@code "HOW:NAME"}: {@code now} returns
 * {@code "done NAME"} in its first step; {@code sleep} sleeps {@code nap} first (a worker resumes
 * it); {@code wait} waits for an input and returns {@code "done NAME INPUT"}; {@code fail} sleeps
 * and then throws; {@code failnow} throws in its first step; {@code gate} waits for an input, and
 * its next step waits at {@link Gate} before it returns {@code "done NAME"}. Whatever ends it, its {@code finally}
 * writes {@code "finally"} to the ledger in the step's transaction (a cancel runs it as it closes
 * the session).
 */
public final class Part implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final Duration nap;

    public Part(Duration nap) {
        this.nap = nap;
    }

    public Part() {
        this(Duration.ofMillis(1));
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object first) {
        String command = (String) first;
        String how = command.substring(0, command.indexOf(':'));
        String name = command.substring(command.indexOf(':') + 1);
        try {
            switch (how) {
                case "now" -> {
                    return "done " + name;
                }
                case "failnow" -> throw new IllegalStateException("part " + name + " failed");
                case "gate" -> {
                    self.ret("waiting");
                    Gate.pass();
                    return "done " + name;
                }
                case "wait" -> {
                    Object input = self.ret("waiting");
                    return "done " + name + " " + input;
                }
                default -> {
                    StepContext.current().sleep(nap);
                    self.ret("asleep");
                    if (how.equals("fail")) {
                        throw new IllegalStateException("part " + name + " failed");
                    }
                    return "done " + name;
                }
            }
        } finally {
            LedgerRows.write("finally");
        }
    }
}
