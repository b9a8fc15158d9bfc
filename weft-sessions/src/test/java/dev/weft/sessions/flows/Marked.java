package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Names the point "step", then a point named by its input with the values the input asks for,
 * before each {@code ret}: plain JDK values, or ones that {@link StepContext#suspendingAt} must
 * refuse (then it answers with the refusal's message, and "step" stands).
 */
public final class Marked implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    /** A value of the application's own class. */
    public record Visitor(String name) implements Serializable {
    }

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String first) {
        String input = first;
        while (true) {
            String answer;
            try {
                StepContext.current().suspendingAt("step", Map.of("input", input));
                StepContext.current().suspendingAt(input, values(input));
                answer = "named " + input;
            } catch (IllegalArgumentException e) {
                answer = "refused: " + e.getMessage();
            }
            input = self.ret(answer);
        }
    }

    private static Map<String, ?> values(String input) {
        return switch (input) {
            case "plain" -> Map.of("names", new ArrayList<>(List.of("Ada", "Grace")), "since", LocalDate.of(2024, 1, 2),
                    "scores", new int[] {1, 2}, "weekday", java.time.DayOfWeek.MONDAY);
            case "custom" -> Map.of("visitor", new Visitor("Ada"));
            case "nested" -> Map.of("visitors", new ArrayList<>(List.of("Ada", new Visitor("Grace"))));
            case "array" -> Map.of("visitors", new Visitor[] {new Visitor("Ada")});
            case "class" -> Map.of("type", Visitor.class);
            case "unserializable" -> Map.of("lock", new Object());
            default -> Map.of("input", input);
        };
    }
}
