package dev.weft.examples.session;

import dev.weft.sessions.StepContext;

import java.time.Duration;

/**
 * Thesis section 5.2's interaction again, as a durable session that does not wait for ever: each
 * question is awaited for a day ({@link StepContext#awaitInput}); when the day passes with no
 * answer, a worker resumes the session, and the step it runs asks again with a reminder (what a
 * mail to the user would carry), and waits another day. The reminder step commits exactly once,
 * whichever node's worker runs it.
 */
public class RemindedInteraction extends Interaction {

    private static final long serialVersionUID = 1L;

    /** How long a question waits for its answer before the user is reminded. */
    public static final Duration PATIENCE = Duration.ofDays(1);

    /** Asks for a line of input, reminding the user each day it does not come. */
    @Override
    protected String readString(String message) {
        String prompt = message;
        while (true) {
            StepContext.current().awaitInput(PATIENCE);
            String answer = super.readString(prompt);
            if (!StepContext.current().timedOut()) {
                return answer;
            }
            prompt = "Reminder: no answer within a day. " + message;
        }
    }
}
