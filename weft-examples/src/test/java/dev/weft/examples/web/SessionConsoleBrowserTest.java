package dev.weft.examples.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operator's console ({@link dev.weft.sessions.SessionConsole}) in a real browser, mounted in
 * the web demo's server (a process of its own, on each engine) as an application mounts it:
 * visitors leave three forms half-way, a row is changed in the store behind the server's back,
 * a checkout fails while the demo's payment service is down, and an operator, in headless
 * Chromium, finds the sessions by their counts and filters, reads a session's stack as source
 * lines with its values and a failed one's failure, signs in with the console's token, and
 * sends a message, cancels, retries the checkout once the service is back, and removes the
 * untrusted row, each after its confirmation. The pages are
 * photographed into {@code target/console/} (the README's pictures are these).
 */
class SessionConsoleBrowserTest extends BrowserTest {

    private static final String TOKEN = "browser-test-console-token-0123456789";

    @ParameterizedTest
    @EnumSource(Engine.class)
    void anOperatorFindsReadsAndActsOnTheSessions(Engine engine) throws Exception {
        Path database = directory.resolve("sessions.db");
        server = DemoServer.start(port, database, engine, Map.of("WEFT_CONSOLE_TOKEN", TOKEN));

        // visitors leave three forms half-way
        browser.open(url("/questions?new"));
        answer("John Doe");
        String interaction = sessionOf(browser.text("#served"));
        browser.open(url("/register?new"));
        answer("Ada");
        String registration = sessionOf(browser.text("#served"));
        browser.open(url("/reminded?new"));
        String reminded = sessionOf(browser.text("#served"));
        browser.open(url("/questions?new"));
        String tampered = sessionOf(browser.text("#served"));
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
                PreparedStatement update = connection.prepareStatement("UPDATE weft_sessions SET version = 0 WHERE id = ?")) {
            update.setString(1, tampered);
            assertEquals(1, update.executeUpdate());
        }

        // the list: counts, the row the node does not trust, a filter
        browser.open(url("/"));
        browser.clickToLoad("#console");
        assertEquals("4", browser.text("#count-suspended"), "the changed row's status is counted as stored");
        assertTrue(browser.text("table.sessions").contains("column version holds 0, not the number of a step"),
                browser.text("table.sessions"));
        browser.screenshot(Path.of("target", "console", "console-list-" + name(engine) + ".png"));
        browser.click("select[name=wait] option[value=INPUT]");
        browser.clickToLoad(".filters button[type=submit]");
        String waiting = browser.text("table.sessions");
        assertTrue(waiting.contains(reminded) && !waiting.contains(interaction), "a day's wait for an answer: " + waiting);
        assertTrue(browser.url().contains("wait=INPUT"), browser.url());

        // a session's stack, as source lines with its values
        browser.open(url("/console/session?id=" + interaction));
        assertTrue(browser.exists(".frames"), browser.text("main"));
        String stack = browser.text(".frames").replaceAll("\\s+", " ");
        assertTrue(stack.contains("dev.weft.examples.session.Interaction.run(Interaction.java:"), stack);
        assertTrue(stack.contains("dev.weft.examples.session.Interaction.readString(Interaction.java:"), stack);
        assertTrue(stack.contains("name String \"John Doe\""), stack);
        assertEquals("This node takes it: its code has every method of its frames, unchanged.",
                browser.text("#verdict"));
        browser.screenshot(Path.of("target", "console", "console-session-" + name(engine) + ".png"));

        // signed in, the operator acts, each action confirmed first
        browser.clickToLoad("a[href='/console/sign-in']");
        browser.type("input[name=token]", TOKEN);
        browser.clickToLoad("#sign-in");
        assertEquals("Signed in", browser.text(".mode"));
        browser.open(url("/console/session?id=" + registration));
        browser.clickToLoad("#action-send");
        assertEquals("Send a message to session " + registration + "?", browser.text("h1"));
        browser.type("textarea[name=message]", "hello from the console");
        browser.clickToLoad("#confirm");
        assertEquals("The message is in its inbox.", browser.text("#done"));
        browser.clickToLoad("#action-cancel");
        browser.clickToLoad("#confirm");
        assertEquals("It was cancelled.", browser.text("#done"));
        assertEquals("Cancelled", browser.text(".title-row .pill"));

        // a checkout fails while the payment service is down; once it is back, the operator retries it
        browser.open(url("/payments"));
        browser.clickToLoad("#switch");
        assertEquals("The payment service is down.", browser.text("#payments"));
        browser.open(url("/checkout?new"));
        browser.type("#answer", "12.50");
        browser.clickToLoad("#next");
        assertTrue(browser.text("#error").contains("the payment service is down: 12.50 euros were not charged"),
                browser.text("#error"));
        browser.open(url("/console/"));
        browser.clickToLoad("a[href='/console/?status=FAILED']");
        browser.clickToLoad("td.id a");
        String checkout = browser.text("h1");
        assertTrue(browser.text("#failure").startsWith("java.lang.IllegalStateException: the payment service is down"),
                browser.text("#failure"));
        browser.screenshot(Path.of("target", "console", "console-failed-" + name(engine) + ".png"));
        browser.open(url("/payments"));
        browser.clickToLoad("#switch");
        assertEquals("The payment service is up.", browser.text("#payments"));
        browser.open(url("/console/session?id=" + checkout));
        browser.clickToLoad("#action-retry");
        browser.clickToLoad("#confirm");
        assertEquals("Session " + checkout + " ran its failed step again and finished; the store keeps no finished"
                + " session.", browser.text("#done"));

        // the row the node does not trust shows why, never its data, and can be removed
        browser.open(url("/console/session?id=" + tampered));
        assertTrue(browser.text("#refusal").endsWith("column version holds 0, not the number of a step"),
                browser.text("#refusal"));
        assertFalse(browser.exists(".frames"), "nothing of a refused row is shown");
        browser.clickToLoad("#action-remove");
        browser.clickToLoad("#confirm");
        assertEquals("Session " + tampered + " was removed.", browser.text(".banner"));
        assertFalse(browser.text("table.sessions").contains(tampered));
        assertTrue(Files.size(Path.of("target", "console", "console-session-" + name(engine) + ".png")) > 10_000);
    }

    private void answer(String text) throws IOException, InterruptedException {
        browser.type("#answer", text);
        browser.clickToLoad("#next");
    }

    private static String sessionOf(String served) {
        return served.substring("session ".length(), served.indexOf(','));
    }


    private static String name(Engine engine) {
        return engine.name().toLowerCase(java.util.Locale.ROOT);
    }
}
