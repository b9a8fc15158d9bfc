package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.util.Map;

/**
 * A form as one method, in the manner of thesis 5.2: each question is a {@code ret}; a number is
 * asked for again until it is one. Names its points for upgrades.
 */
public final class Questionnaire implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String ignored) {
        String name = ask(self, "name", "What is your name?", Map.of());
        String city = ask(self, "city", "Where do you live, " + name + "?", Map.of("name", name));
        int age = number(self, "How old are you?", name, city);
        return name + " from " + city + ", " + age;
    }

    private static int number(AsymCoroutine<? extends String, ? super String> self, String question, String name,
            String city) {
        String asked = question;
        while (true) {
            String answer = ask(self, "age", asked, Map.of("name", name, "city", city));
            try {
                return Integer.parseInt(answer);
            } catch (NumberFormatException e) {
                asked = question + " (a number, please)";
            }
        }
    }

    private static String ask(AsymCoroutine<? extends String, ? super String> self, String point, String question,
            Map<String, ?> values) {
        StepContext.current().suspendingAt(point, values);
        return self.ret(question);
    }
}
