package dev.weft.examples.session;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;
import dev.weft.sessions.StepContext;

import java.io.Serializable;
import java.time.Duration;

/**
 * Thesis section 5.2's interaction again, as a durable session that does not wait for ever: each
 * question is awaited for a day ({@link StepContext#awaitInput}); when the day passes with no
 * answer, a worker resumes the session, and the step it runs asks again with a reminder (what a
 * mail to the user would carry), and waits another day. The reminder step commits exactly once,
 * whichever node's worker runs it.
 */
public class RemindedInteraction implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    /** How long a question waits for its answer before the user is reminded. */
    static final Duration PATIENCE = Duration.ofDays(1);

    private AsymCoroutine<? extends String, ? super String> coroutine;

    /** Asks for a line of input, reminding the user each day it does not come. */
    private String readString(String message) {
        String prompt = message;
        while (true) {
            StepContext.current().awaitInput(PATIENCE);
            String answer = coroutine.ret(prompt);
            if (!StepContext.current().timedOut()) {
                return answer;
            }
            prompt = "Reminder: no answer within a day. " + message;
        }
    }

    /** Asks for a number, again and again, warning once that the answer was not one. */
    private int readNumber(String message) {
        int tries = 0;
        while (true) {
            try {
                return Integer.valueOf(readString(message));
            } catch (NumberFormatException e) {
                if (tries++ == 0) {
                    message += " Please enter a valid number!";
                }
            }
        }
    }

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> coroutine, String value) {
        this.coroutine = coroutine;
        String name = readString("Please enter your name:");
        String country = readString("Please enter your country:");
        int age = readNumber("Please enter your age:");
        String contact = age < 70 ? readString("Please enter your email address:")
                : readString("Please enter your telephone number:");
        return "Name: " + name + ", Country: " + country + ", Age: " + age + (age < 70 ? ", Email: " : ", Telephone: ")
                + contact;
    }
}
