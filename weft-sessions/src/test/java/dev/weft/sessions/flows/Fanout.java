package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.ChildOutcome;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Fans out and in: starts one child per part, with id {@code PARENT-INDEX} (a {@link Part}, or
 * for a part {@code "fanout:P"} a Fanout of its own with the one part P), writes {@code "started
 * ID"} or {@code "refused MESSAGE"} to the ledger for each, then takes the children's outcomes,
 * writing {@code "outcome ID STATUS OUTPUT-OR-FAILURE"} for each. With {@code first}, it cancels
 * the children still running once the first outcome came, and returns it; else it returns
 * {@code "all"} and what each finished child returned, in the order they came. A part
 * {@code "unstorable"} is a child whose body cannot be stored.
 */
public final class Fanout implements AsymRunnable<Object, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private final List<String> parts;
    private final boolean first;

    public Fanout(List<String> parts, boolean first) {
        this.parts = new ArrayList<>(parts);
        this.first = first;
    }

    @Override
    public String run(AsymCoroutine<? extends Object, ? super String> self, Object input) {
        List<String> running = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            StepContext step = StepContext.current();
            String part = parts.get(i);
            String id = step.sessionId() + "-" + i;
            try {
                if (part.equals("unstorable")) {
                    step.startChild(id, new Unstorable(), null);
                } else if (part.startsWith("fanout:")) {
                    step.startChild(id, new Fanout(List.of(part.substring(7)), false), null);
                } else {
                    step.startChild(id, new Part(), part);
                }
                running.add(id);
                LedgerRows.write("started " + id);
            } catch (RuntimeException e) {
                LedgerRows.write("refused " + e.getMessage());
            }
        }
        List<String> outputs = new ArrayList<>();
        while (!running.isEmpty()) {
            StepContext.current().awaitChildren();
            ChildOutcome outcome = (ChildOutcome) self.ret("waiting for " + running.size());
            LedgerRows.write("outcome " + outcome.childId() + " " + outcome.status() + " " + (outcome.finished()
                    ? outcome.output() : outcome.failure() == null ? null : outcome.failure().lines().findFirst()
                            .orElse("")));
            running.remove(outcome.childId());
            outputs.add(String.valueOf(outcome.output()));
            if (first) {
                for (String other : running) {
                    StepContext.current().cancelChild(other);
                }
                return "first " + outcome.output();
            }
        }
        return "all " + outputs;
    }

    /** A body that is not Serializable. */
    private static final class Unstorable implements AsymRunnable<Object, Object> {
        @Override
        public Object run(AsymCoroutine<? extends Object, ? super Object> self, Object first) {
            return null;
        }
    }
}
