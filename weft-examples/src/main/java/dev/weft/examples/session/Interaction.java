package dev.weft.examples.session;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;

/**
 * Thesis section 5.2: a user interaction written as straight-line code, as if every answer
 * were at hand when asked for. Each question is a {@code ret}: the coroutine is suspended, and
 * may be written to disk, until the answer arrives as the input of the next {@code call}. Its
 * class must be woven (the build does it) for the coroutine to be serializable.
 */
public class Interaction implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    private AsymCoroutine<? extends String, ? super String> coroutine;

    /** Asks for a line of input. */
    protected String readString(String message) {
        return coroutine.ret(message);
    }

    /** Asks for a number, again and again, warning once that the answer was not one. */
    private int readNumber(String message) {
        int tries = 0;
        while (true) {
            try {
                return Integer.valueOf(readString(message));
            } catch (NumberFormatException e) {
                if (tries++ == 0) {
                    message += "\nPlease enter a valid number!";
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
        if (age < 70) {
            String email = readString("Please enter your email address:");
            return "Name: " + name + ", Country: " + country + ", Age: " + age + ", Email: " + email;
        } else {
            String telephone = readString("Please enter your telephone number:");
            return "Name: " + name + ", Country: " + country + ", Age: " + age + ", Telephone: " + telephone;
        }
    }
}
