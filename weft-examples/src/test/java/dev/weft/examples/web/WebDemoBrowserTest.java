package dev.weft.examples.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The web demo in a real browser: headless Chromium, driven through {@code chromedriver}, fills
 * in its three forms against a server process on the embedded store (the thesis interaction on
 * each engine), and the server is killed (SIGKILL) in the middle of the longer form, and of the
 * form left for two days and reminded by the server's worker, and another started, of the other
 * engine, on which the visitor finishes it. Chromium and chromium-driver are Debian's, installed
 * by the build's own script ({@code src/test/scripts/install-chromium.sh}) where missing; the test is skipped, saying
 * why, only where they cannot be installed.
 */
class WebDemoBrowserTest extends BrowserTest {

    @ParameterizedTest
    @EnumSource(Engine.class)
    void theThesisInteractionInABrowser(Engine engine) throws Exception {
        server = startServer(engine);
        browser.open(url("/"));
        browser.click("#questions");
        assertEquals("Please enter your name:", browser.text("#question"));
        assertTrue(browser.text("#served").contains(", on the " + name(engine) + " engine,"), browser.text("#served"));
        answer("John Doe");
        answer("Genovia");
        answer("twenty-eight");
        assertEquals("Please enter your age:\nPlease enter a valid number!", browser.text("#question"));
        answer("28");
        assertEquals("Please enter your email address:", browser.text("#question"));
        answer("nospam@nospam.at");
        assertEquals("Name: John Doe, Country: Genovia, Age: 28, Email: nospam@nospam.at", browser.text("#result"));
    }

    /** The server killed is a native-engine one; the one that takes over runs the woven engine. */
    @Test
    void theLongerFormGoesBackRetriesAndSurvivesAServerKilledInItsMiddle() throws Exception {
        server = startServer(Engine.NATIVE);
        browser.open(url("/register?new"));
        assertEquals("Your name?", browser.text("#question"));
        answer("Ada");
        answer("ada at example.org");
        assertEquals("\"ada at example.org\" is not an e-mail address. Your e-mail address?",
                browser.text("#question"));
        answer("ada@example.org");
        assertEquals("Your plan: basic or pro?", browser.text("#question"));
        submit("#back");
        assertEquals("Your e-mail address? (it was: ada@example.org)", browser.text("#question"));
        String before = browser.text("#served");

        // the server dies with the visitor's form on the screen, and another process takes over
        server.destroyForcibly();
        server.waitFor(1, TimeUnit.MINUTES);
        server = startServer(Engine.WOVEN);

        answer("ada@example.org");
        assertEquals("Your plan: basic or pro?", browser.text("#question"));
        String after = browser.text("#served");
        assertNotEquals(pid(before), pid(after), "a new process serves the form");
        assertTrue(before.contains(", on the native engine,") && after.contains(", on the woven engine,"),
                before + " / " + after);
        assertEquals(session(before), session(after), "the same session");
        answer("pro");
        assertEquals("Register Ada <ada@example.org>, plan pro? (yes, or back)", browser.text("#question"));
        answer("yes");
        assertEquals("Registered Ada <ada@example.org>, plan pro.", browser.text("#result"));
    }

    /**
     * The thesis interaction that waits a day for each answer: the visitor answers one question
     * and leaves the form; a day passes (the page's button moves the server's clock on), the
     * server's worker resumes the session and reminds the visitor, twice; the server is then
     * killed and another one, of the other engine, finishes the form with the visitor.
     */
    @Test
    void anAbandonedFormIsRemindedAndFinishedOnAnotherServer() throws Exception {
        server = startServer(Engine.WOVEN);
        browser.open(url("/"));
        browser.click("#reminded");
        assertEquals("Please enter your name:", browser.text("#question"));
        answer("John Doe");
        assertEquals("Please enter your country:", browser.text("#question"));
        String answered = browser.text("#served");

        submit("#day");
        assertEquals("Reminder: no answer within a day. Please enter your country:", browser.text("#question"));
        assertEquals(step(answered) + 1, step(browser.text("#served")), "the worker's reminder is a step of its own");
        assertTrue(browser.text("#clock").endsWith("(a day ahead of real time)"), browser.text("#clock"));
        submit("#day");
        assertEquals("Reminder: no answer within a day. Please enter your country:", browser.text("#question"));
        assertEquals(step(answered) + 2, step(browser.text("#served")));
        assertTrue(browser.text("#clock").endsWith("(2 days ahead of real time)"), browser.text("#clock"));

        // the visitor comes back to a new server, of the other engine, where no day has passed
        server.destroyForcibly();
        server.waitFor(1, TimeUnit.MINUTES);
        server = startServer(Engine.NATIVE);
        browser.open(url("/reminded"));
        assertEquals("Reminder: no answer within a day. Please enter your country:", browser.text("#question"));
        answer("Genovia");
        assertEquals("Please enter your age:", browser.text("#question"));
        answer("28");
        answer("nospam@nospam.at");
        assertEquals("Name: John Doe, Country: Genovia, Age: 28, Email: nospam@nospam.at", browser.text("#result"));
    }

    private static long step(String served) {
        int at = served.indexOf(", step ") + ", step ".length();
        return Long.parseLong(served.substring(at, served.indexOf(',', at)));
    }

    private void answer(String text) throws IOException, InterruptedException {
        browser.type("#answer", text);
        submit("#next");
    }

    /** Clicks {@code button} and waits for the next page: one whose step differs, or the result. */
    private void submit(String button) throws IOException, InterruptedException {
        String before = browser.text("#served");
        browser.click(button);
        for (int attempt = 0; attempt < 600; attempt++) {
            String now = null;
            try {
                now = browser.text("#served");
            } catch (IOException e) {
                if (browser.exists("#result")) {
                    return;
                }
            }
            if (now != null && !now.equals(before)) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IOException("no new page after clicking " + button);
    }

    private static String pid(String served) {
        return served.substring(served.lastIndexOf(' ') + 1);
    }

    private static String session(String served) {
        return served.substring("session ".length(), served.indexOf(','));
    }


    private static String name(Engine engine) {
        return engine.name().toLowerCase(Locale.ROOT);
    }

    /** The demo server as a process of its own, on {@link #port}, over a SQLite file in the test's directory, running {@code engine}. */
    private Process startServer(Engine engine) throws IOException {
        Process process = DemoServer.start(port, directory.resolve("sessions.db"), engine, java.util.Map.of());
        assertTrue(Files.exists(directory.resolve("sessions.db")));
        return process;
    }
}
