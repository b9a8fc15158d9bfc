package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Section 5.2's interaction as a durable session: a day with no answer makes a worker remind the user. */
public class RemindersTest extends LeftoverCheck {

    public static final List<String> EXPECTED = List.of(
            "2026-03-02T09:00:00Z  start", "  Please enter your name:",
            "2026-03-02T11:00:00Z  answer \"John Doe\"", "  Please enter your country:",
            "2026-03-03T11:00:00Z  (a day has passed with no answer)",
            "  Reminder: no answer within a day. Please enter your country:",
            "2026-03-04T11:00:00Z  (a day has passed with no answer)",
            "  Reminder: no answer within a day. Please enter your country:",
            "2026-03-04T13:00:00Z  answer \"Genovia\"", "  Please enter your age:",
            "2026-03-04T15:00:00Z  answer \"twenty-eight\"", "  Please enter your age:", "Please enter a valid number!",
            "2026-03-05T15:00:00Z  (a day has passed with no answer)",
            "  Reminder: no answer within a day. Please enter your age:", "Please enter a valid number!",
            "2026-03-05T17:00:00Z  answer \"28\"", "  Please enter your email address:",
            "2026-03-05T19:00:00Z  answer \"nospam@nospam.at\"",
            "  Name: John Doe, Country: Genovia, Age: 28, Email: nospam@nospam.at");

    @Test
    void aDayWithNoAnswerSendsAReminderAndTheInteractionCarriesOn() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> {
            try {
                dev.weft.examples.session.Reminders.transcript(System.out);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }));
    }
}
