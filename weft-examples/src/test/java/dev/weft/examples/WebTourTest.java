package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The web demo visited over HTTP: both forms, a retry, the back button, and a server restart mid-form. */
public class WebTourTest {

    public static final List<String> EXPECTED = List.of(
            "GET /questions?new", "  Please enter your name:",
            "POST /questions answer=John Doe", "  Please enter your country:",
            "POST /questions answer=Genovia", "  Please enter your age:",
            "POST /questions answer=twenty-eight", "  Please enter your age:", "  Please enter a valid number!",
            "POST /questions answer=28", "  Please enter your email address:",
            "POST /questions answer=nospam@nospam.at", "  Name: John Doe, Country: Genovia, Age: 28, Email: nospam@nospam.at",
            "GET /register?new", "  Your name?",
            "POST /register answer=Ada", "  Your e-mail address?",
            "POST /register answer=ada at example.org", "  \"ada at example.org\" is not an e-mail address. Your e-mail address?",
            "POST /register answer=ada@example.org", "  Your plan: basic or pro?",
            "POST /register back=1", "  Your e-mail address? (it was: ada@example.org)",
            "(the server stops, and a new one starts on the same database)",
            "GET /register", "  Your e-mail address? (it was: ada@example.org)",
            "POST /register answer=ada@example.org", "  Your plan: basic or pro?",
            "POST /register answer=pro", "  Register Ada <ada@example.org>, plan pro? (yes, or back)",
            "POST /register answer=yes", "  Registered Ada <ada@example.org>, plan pro.");

    @Test
    void bothFormsAreFilledInAcrossAServerRestart() {
        assertEquals(Output.text(EXPECTED), Output.ofMain(() -> {
            try {
                dev.weft.examples.web.WebTour.tour(System.out);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }));
    }
}
