package dev.weft.examples.web;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;

/**
 * A longer form written as one method: three questions and a confirmation, with a back button
 * (the input {@link #BACK} returns to the previous question, its answer kept) and a retry (an
 * answer that does not fit is asked for again, saying why). Each question is a {@code ret}; the
 * web demo stores the suspended form between requests. Its class must be woven.
 */
public final class Registration implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    /** The input the form's back button sends. */
    public static final String BACK = "\u2190 back";

    private static final String[] QUESTIONS = {"Your name?", "Your e-mail address?", "Your plan: basic or pro?"};

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String ignored) {
        String[] answers = new String[QUESTIONS.length];
        String problem = "";
        int i = 0;
        while (true) {
            if (i == QUESTIONS.length) {
                String summary = answers[0] + " <" + answers[1] + ">, plan " + answers[2];
                String answer = self.ret(problem + "Register " + summary + "? (yes, or back)");
                if ("yes".equalsIgnoreCase(answer.strip())) {
                    return "Registered " + summary + ".";
                }
                problem = BACK.equals(answer) ? "" : "Please answer yes, or go back. ";
                i = BACK.equals(answer) ? i - 1 : i;
                continue;
            }
            String answer = self.ret(problem + QUESTIONS[i]
                    + (answers[i] == null ? "" : " (it was: " + answers[i] + ")"));
            problem = "";
            if (BACK.equals(answer)) {
                i = Math.max(0, i - 1);
                continue;
            }
            String trouble = check(i, answer.strip());
            if (trouble != null) {
                problem = trouble + " ";
                continue;
            }
            answers[i++] = answer.strip();
        }
    }

    /** Why {@code answer} does not fit question {@code i}; null if it does. */
    private static String check(int i, String answer) {
        if (answer.isEmpty()) {
            return "Please give an answer.";
        }
        if (i == 1 && !answer.matches("[^@\\s]+@[^@\\s]+")) {
            return "\"" + answer + "\" is not an e-mail address.";
        }
        if (i == 2 && !answer.equals("basic") && !answer.equals("pro")) {
            return "There is no plan \"" + answer + "\".";
        }
        return null;
    }
}
