package dev.weft.sessions;

import static dev.weft.sessions.SessionWaitsContract.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.weft.sessions.flows.Alarm;
import dev.weft.sessions.flows.Flaky;
import dev.weft.sessions.flows.Mailbox;
import dev.weft.sessions.flows.Order;
import dev.weft.sessions.flows.Questionnaire;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link SessionConsole} over HTTP, on every store and engine: run as a nested class of
 * {@link SessionStoreContract} ({@code Console}). Served by the JDK's HTTP server under a path
 * of its own ({@code /ops}, as an application mounts it) and read by the JDK's HTTP client:
 * its list's counts, filters and pages, a session's page (its stack as source lines with its
 * values, its verdict, failure and history), each action behind its confirmation, the token,
 * the form field and the origin checks that guard them, a sealed row changed in the store, and
 * what a hostile id or request meets. Its look in a browser is tested in weft-examples
 * ({@code SessionConsoleBrowserTest}, headless Chromium).
 */
abstract class SessionConsoleContract {

    static final String TOKEN = "console-token-of-the-tests-0123456789";
    private static final Pattern FORM_TOKEN = Pattern.compile("name=\"form_token\" value=\"([0-9a-f]*)\"");

    /** The suite whose store, engine and database these tests use. */
    abstract SessionStoreContract suite();

    private final MutableClock clock = new MutableClock(T0);
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private HttpServer server;
    private String base;

    /** A node on the test's clock that keeps finished sessions and a day of history. */
    private Sessions node() {
        return suite().builder().clock(clock).keepFinished(true).keepHistory(Duration.ofDays(1)).nodeName("node-a")
                .build();
    }

    /** Serves a console of {@code node} at {@code /ops}, with {@code token} (null: read-only). */
    private void serve(Sessions node, String token) throws IOException {
        SessionConsole console = SessionConsole.builder(node).path("/ops").token(token).clock(clock)
                .title("Orders").build();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ops", console.httpHandler());
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String form, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Signs in with the token; the cookie to send. */
    private String signIn() throws IOException, InterruptedException {
        HttpResponse<String> signedIn = post("/ops/sign-in", "token=" + Html.query(TOKEN));
        assertEquals(303, signedIn.statusCode(), signedIn.body());
        String cookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/ops"),
                cookie);
        assertFalse(cookie.contains(TOKEN), "the cookie holds no token");
        return cookie.substring(0, cookie.indexOf(';'));
    }

    /** The form field of the confirmation page of {@code action} on session {@code id}. */
    private String formToken(String cookie, String id, String action) throws IOException, InterruptedException {
        HttpResponse<String> confirm = get("/ops/confirm?id=" + Html.query(id) + "&action=" + action, "Cookie",
                cookie);
        assertEquals(200, confirm.statusCode(), confirm.body());
        Matcher field = FORM_TOKEN.matcher(confirm.body());
        assertTrue(field.find(), confirm.body());
        return field.group(1);
    }

    private HttpResponse<String> act(String cookie, String id, String action, String extra)
            throws IOException, InterruptedException {
        return post("/ops/action", "id=" + Html.query(id) + "&action=" + action + "&form_token="
                + formToken(cookie, id, action) + extra, "Cookie", cookie);
    }

    /** The ids of the sessions a list page links to, in its order. */
    private static List<String> listed(String page) {
        Matcher link = Pattern.compile("<td class=\"id\"><a href=\"/ops/session\\?id=([^\"]*)\"").matcher(page);
        List<String> ids = new ArrayList<>();
        while (link.find()) {
            ids.add(java.net.URLDecoder.decode(link.group(1), StandardCharsets.UTF_8));
        }
        return ids;
    }

    // ---------------------------------------------------------------- the list

    @Test
    void theListCountsByStatusAndBuildFiltersAndPages() throws Exception {
        Sessions node = node();
        List<String> asking = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            asking.add(node.start("ask-" + i, new Questionnaire(), null).id());
            clock.advance(Duration.ofMinutes(1));
        }
        String sleeping = node.start("sleeper", new Alarm(), Duration.ofHours(5)).id();
        clock.advance(Duration.ofMinutes(1));
        String failing = node.start(new Flaky(5, Flaky.INPUT, false), null).id(); // Flaky counts runs by id: a fresh one
        assertThrows(SessionFailedException.class, () -> node.resume(failing, "x"));
        clock.advance(Duration.ofHours(2));
        String young = node.start("young", new Questionnaire(), null).id();
        serve(node, null);

        HttpResponse<String> all = get("/ops/");
        assertEquals(200, all.statusCode());
        assertEquals(List.of("ask-0", "ask-1", "ask-2", sleeping, failing, young), listed(all.body()));
        assertTrue(all.body().contains("<span class=\"n\" id=\"count-suspended\">5</span>"), all.body());
        assertTrue(all.body().contains("<span class=\"n\" id=\"count-failed\">1</span>"), all.body());
        String build = node.status("ask-0").orElseThrow().build();
        assertTrue(all.body().contains(build.substring(0, 12)) && all.body().contains("this node takes them"));

        assertEquals(List.of(failing), listed(get("/ops/?status=FAILED").body()));
        assertEquals(List.of(sleeping), listed(get("/ops/?wait=SLEEP").body()));
        assertEquals(List.of(sleeping), listed(get("/ops/?due=7d").body()), "due within 7 days");
        assertEquals(List.of(), listed(get("/ops/?due=1h").body()), "it wakes in 3 hours");
        assertEquals(List.of(failing), listed(get("/ops/?failure=ATTEMPT+1").body()), "case ignored");
        assertEquals(List.of(), listed(get("/ops/?failure=100%25").body()), "% is a character, not a pattern");
        assertEquals(List.of("ask-0", "ask-1", "ask-2"), listed(get("/ops/?point=name&age=1h").body()),
                "at point name, started more than an hour ago");
        assertEquals(List.of("ask-0", "ask-1", "ask-2", young), listed(get("/ops/?status=SUSPENDED&wait=none")
                .body()));

        HttpResponse<String> first = get("/ops/?status=SUSPENDED&limit=2");
        assertEquals(List.of("ask-0", "ask-1"), listed(first.body()));
        Matcher next = Pattern.compile("id=\"next-page\" href=\"([^\"]*)\"").matcher(first.body());
        assertTrue(next.find(), first.body());
        HttpResponse<String> second = get(next.group(1).replace("&amp;", "&"));
        assertEquals(List.of("ask-2", sleeping), listed(second.body()), "the filter is kept on the next page");

        String refreshing = get("/ops/?status=FAILED&refresh=10").body();
        assertTrue(refreshing.contains("<meta http-equiv=\"refresh\" content=\"10\">"), refreshing);
        assertTrue(refreshing.contains("<input type=\"hidden\" name=\"refresh\" value=\"10\">"),
                "a filter keeps the page refreshing");
        assertTrue(refreshing.contains("id=\"refresh\" href=\"/ops/?status=FAILED\">Stop refreshing"), refreshing);
        assertTrue(all.body().contains("id=\"refresh\" href=\"/ops/?refresh=10\">Refresh every 10 s"), all.body());
        assertFalse(all.body().contains("http-equiv"), "not refreshing unless asked");
    }

    @Test
    void aBadFilterIsRefusedSayingWhichAndWhy() throws Exception {
        serve(node(), null);
        HttpResponse<String> status = get("/ops/?status=ASLEEP");
        assertEquals(400, status.statusCode());
        assertTrue(status.body().contains("status must be one of [SUSPENDED, FINISHED, FAILED, CANCELLED], not"
                + " &#39;ASLEEP&#39;."), status.body());
        assertEquals(400, get("/ops/?age=forever").statusCode());
        assertEquals(400, get("/ops/?refresh=1").statusCode(), "a page that reloads every second loads the store");
        assertEquals(400, get("/ops/?limit=5000").statusCode());
        assertEquals(400, get("/ops/?after=not-a-cursor").statusCode());
        SessionConsole.Response malformed = SessionConsole.builder(suite().sessions).build().handle(
                new SessionConsole.Request("GET", "/", "status=%zz", java.util.Map.of(), new byte[0]));
        assertEquals(400, malformed.status(), "a query no browser sends, as a server may pass it on");
        assertTrue(new String(malformed.body(), StandardCharsets.UTF_8).contains("are not URL-encoded"));
    }

    // ---------------------------------------------------------------- a session

    @Test
    void aSessionsPageShowsItsStackAsSourceLinesWithValuesItsVerdictAndHistory() throws Exception {
        Sessions node = node();
        String id = node.start(new Order(), "book <b>").id();
        serve(node, null);
        HttpResponse<String> page = get("/ops/session?id=" + id);
        assertEquals(200, page.statusCode(), page.body());
        String html = page.body();
        assertTrue(html.contains("dev.weft.sessions.flows.Order.confirm(<span class=\"file\">Order.java:"
                + SessionStackContract.lineOf("the innermost frame") + "</span>)"), html);
        assertTrue(html.contains("dev.weft.sessions.flows.Order.run(<span class=\"file\">Order.java:"
                + SessionStackContract.lineOf("the caller's frame") + "</span>)"), html);
        assertTrue(html.contains("<td class=\"name\">item</td><td class=\"type\"><code>String</code></td>"
                + "<td class=\"value\"><code>&quot;book &lt;b&gt;&quot;</code></td>"), "escaped: " + html);
        assertTrue(html.contains("<td class=\"name\">stage</td><td class=\"type\"><code>Order.Stage</code></td>"
                + "<td class=\"value\"><code>dev.weft.sessions.flows.Order$Stage.PAID</code></td>"), html);
        assertTrue(html.contains("<code id=\"output\">&quot;Confirm 3 x book &lt;b&gt;?&quot;</code>"), html);
        assertTrue(html.contains("id=\"verdict\">This node takes it"), html);
        assertTrue(html.contains("<td>node-a</td>"), "its history: " + html);
        assertTrue(html.contains("<span class=\"muted\">Read-only console</span>"), html);
        assertFalse(html.contains("id=\"action-"), "no action on a read-only console");

        HttpResponse<String> missing = get("/ops/session?id=nobody");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("There is no session nobody in this store."), missing.body());
    }

    @Test
    void aFailedSessionsPageShowsItsFailure() throws Exception {
        Sessions node = node();
        String id = node.start(new Flaky(5, Flaky.INPUT, false), null).id();
        assertThrows(SessionFailedException.class, () -> node.resume(id, "x"));
        serve(node, TOKEN);
        String html = get("/ops/session?id=" + id, "Cookie", signIn()).body();
        assertTrue(html.contains("<pre class=\"failure-trace\" id=\"failure\">java.lang.IllegalStateException:"
                + " attempt 1"), html);
        assertTrue(html.contains("id=\"action-retry\"") && html.contains("id=\"action-cancel\"")
                && html.contains("id=\"action-remove\"") && !html.contains("id=\"action-send\""), html);
    }

    // ---------------------------------------------------------------- actions

    @Test
    void eachActionAsksForConfirmationThenDoesWhatItSays() throws Exception {
        Sessions node = node();
        String toCancel = node.start("to-cancel", new Questionnaire(), null).id();
        String mailbox = node.start("mailbox", new Mailbox(), null).id();
        String flaky = node.start(new Flaky(1, Flaky.INPUT, false), null).id(); // Flaky counts runs by id: a fresh one
        assertThrows(SessionFailedException.class, () -> node.resume(flaky, "x"));
        String toRemove = node.start("to-remove", new Questionnaire(), null).id();
        serve(node, TOKEN);
        String cookie = signIn();

        HttpResponse<String> confirm = get("/ops/confirm?id=to-cancel&action=cancel", "Cookie", cookie);
        assertTrue(confirm.body().contains("Cancel session <code>to-cancel</code>?"), confirm.body());
        assertEquals(SessionStatus.SUSPENDED, node.status(toCancel).orElseThrow().status(), "asking changes nothing");
        HttpResponse<String> cancelled = act(cookie, toCancel, "cancel", "");
        assertEquals(303, cancelled.statusCode(), cancelled.body());
        assertEquals("/ops/session?id=to-cancel&done=cancelled", cancelled.headers().firstValue("Location")
                .orElseThrow());
        assertEquals(SessionStatus.CANCELLED, node.status(toCancel).orElseThrow().status());
        assertTrue(get("/ops/session?id=to-cancel&done=cancelled").body().contains("It was cancelled."));

        HttpResponse<String> again = act(cookie, toCancel, "cancel", "");
        assertEquals(409, again.statusCode(), "a cancelled session cannot be cancelled again");
        assertTrue(again.body().contains("id=\"error\""), again.body());

        assertEquals(303, act(cookie, mailbox, "send", "&message=" + Html.query("hello & <welcome>")).statusCode());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(mailbox, node.runDue(List.of()));
        try (Connection connection = suite().connect()) {
            assertEquals(List.of("1:message hello & <welcome>"), StoredRows.ledger(connection, mailbox).stream()
                    .map(row -> row.replaceFirst("^\\d+:", "1:")).toList());
        }

        HttpResponse<String> retried = act(cookie, flaky, "retry", "");
        assertEquals("/ops/session?id=" + flaky + "&done=retried", retried.headers().firstValue("Location").orElseThrow());
        assertEquals(SessionStatus.FINISHED, node.status(flaky).orElseThrow().status());
        assertEquals(2, Flaky.runs(flaky));

        HttpResponse<String> removed = act(cookie, toRemove, "remove", "");
        assertEquals("/ops/?done=removed&id=to-remove", removed.headers().firstValue("Location").orElseThrow());
        assertTrue(node.status(toRemove).isEmpty());
        assertTrue(get("/ops/?done=removed&id=to-remove").body().contains("Session <code>to-remove</code> was"
                + " removed."));
    }

    @Test
    void aReadOnlyConsoleChangesNothingAndSaysSo() throws Exception {
        Sessions node = node();
        String id = node.start(new Questionnaire(), null).id();
        serve(node, null);
        HttpResponse<String> action = post("/ops/action", "id=" + id + "&action=cancel&form_token=x");
        assertEquals(403, action.statusCode());
        assertTrue(action.body().contains("This console has no token: it changes no session."), action.body());
        assertEquals(403, get("/ops/confirm?id=" + id + "&action=remove").statusCode());
        assertEquals(403, post("/ops/sign-in", "token=" + Html.query(TOKEN)).statusCode());
        assertEquals(SessionStatus.SUSPENDED, node.status(id).orElseThrow().status());
        assertEquals(1, node.status(id).orElseThrow().version());
    }

    @Test
    void anActionNeedsTheTokenTheConsolesFormAndTheSameOrigin() throws Exception {
        Sessions node = node();
        String id = node.start(new Questionnaire(), null).id();
        serve(node, TOKEN);
        assertEquals(403, post("/ops/sign-in", "token=wrong-token-wrong-token").statusCode());
        assertEquals(403, post("/ops/action", "id=" + id + "&action=remove").statusCode(), "not signed in");
        String cookie = signIn();
        String form = formToken(cookie, id, "remove");
        assertEquals(403, post("/ops/action", "id=" + id + "&action=remove", "Cookie", cookie).statusCode(),
                "no form field");
        assertEquals(403, post("/ops/action", "id=" + id + "&action=remove&form_token=" + form.replace('a', 'b')
                .replace('0', '1'), "Cookie", cookie).statusCode(), "a wrong form field");
        HttpResponse<String> crossSite = post("/ops/action", "id=" + id + "&action=remove&form_token=" + form,
                "Cookie", cookie, "Sec-Fetch-Site", "cross-site");
        assertEquals(403, crossSite.statusCode());
        assertTrue(crossSite.body().contains("another site"), crossSite.body());
        assertEquals(403, post("/ops/action", "id=" + id + "&action=remove&form_token=" + form, "Cookie", cookie,
                "Origin", "http://evil.example").statusCode());
        assertEquals(403, post("/ops/action", "id=" + id + "&action=remove&form_token=" + form, "Cookie",
                "weft_console=" + "0".repeat(64)).statusCode(), "a made-up cookie");
        assertTrue(node.status(id).isPresent(), "nothing was removed");

        assertEquals(303, post("/ops/action", "id=" + id + "&action=remove&form_token=" + form, "Authorization",
                "Bearer " + TOKEN).statusCode(), "a script sends the token itself");
        assertTrue(node.status(id).isEmpty());
        HttpResponse<String> out = post("/ops/sign-out", "", "Cookie", cookie);
        assertTrue(out.headers().firstValue("Set-Cookie").orElseThrow().contains("Max-Age=0"));
    }

    @Test
    void aTokenShorterThanSixteenCharactersIsRefused() {
        Sessions node = suite().sessions;
        assertEquals("a console's token has at least 16 characters (it stands for the right to cancel and remove"
                + " sessions), not 5", assertThrows(IllegalArgumentException.class,
                        () -> SessionConsole.builder(node).token("short")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> SessionConsole.builder(node).path("ops/"));
        assertThrows(IllegalArgumentException.class, () -> SessionConsole.builder(node).path("/ops\"><script>"));
    }

    // ---------------------------------------------------------------- refusals and hostile input

    @Test
    void aSealedRowChangedInTheStoreShowsItsRefusalNeverItsData() throws Exception {
        Sessions sealing = suite().builder().clock(clock).sealWith(new SecretKeySpec(new byte[32], "HmacSHA256"))
                .build();
        String id = sealing.start(new Order(), "secret-item").id();
        try (Connection connection = suite().connect()) {
            StoredRows.set(connection, id, "failure", "forged <failure>");
        }
        serve(sealing, null);
        String list = get("/ops/").body();
        assertTrue(list.contains("<span class=\"pill refused\">Refused</span>"), list);
        assertTrue(list.contains("column failure differs from what was sealed"), list);
        HttpResponse<String> page = get("/ops/session?id=" + id);
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("This node does not trust the stored row, so nothing of it is shown: column"
                + " failure differs from what was sealed"), page.body());
        assertFalse(page.body().contains("secret-item") || page.body().contains("forged"), page.body());
    }

    @Test
    void textFromTheStoreIsEscapedAndPagesAllowNoScript() throws Exception {
        Sessions node = node();
        String id = node.start("<script>alert(1)</script>", new Questionnaire(), null).id();
        serve(node, null);
        HttpResponse<String> list = get("/ops/");
        assertFalse(list.body().contains("<script>"), list.body());
        assertTrue(list.body().contains("&lt;script&gt;alert(1)&lt;/script&gt;"), list.body());
        String policy = list.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertTrue(policy.startsWith("default-src 'none'") && policy.contains("frame-ancestors 'none'"), policy);
        HttpResponse<String> page = get("/ops/session?id=" + Html.query(id));
        assertEquals(200, page.statusCode());
        assertFalse(page.body().contains("<script>"), page.body());
    }

    @Test
    void unknownPagesMethodsAndPathsOutsideTheConsoleAreAnsweredAsSuch() throws Exception {
        serve(node(), null);
        assertEquals(404, get("/ops/nothing-here").statusCode());
        assertEquals(404, get("/opsx").statusCode(), "not under the console's path");
        HttpResponse<String> css = get("/ops/console.css");
        assertEquals(200, css.statusCode());
        assertEquals("text/css; charset=utf-8", css.headers().firstValue("Content-Type").orElseThrow());
        HttpResponse<String> delete = http.send(HttpRequest.newBuilder(URI.create(base + "/ops/")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, delete.statusCode());
        assertEquals(413, post("/ops/action", "x=" + "y".repeat(70_000)).statusCode());
        assertEquals(400, get("/ops/session").statusCode(), "no id");
        assertEquals(400, get("/ops/confirm?id=a&action=explode").statusCode());
    }

    // ---------------------------------------------------------------- the command

    /**
     * {@code SessionsCommand console} in a JVM of its own serves the store's sessions until it is
     * stopped; started as the README starts it, without {@code --add-exports}, it shows a stack
     * whatever the engine that wrote it (reading frames runs no coroutine).
     */
    @Test
    void theCommandServesTheConsoleInItsOwnProcess() throws Exception {
        String id = node().start("from-the-command", new Order(), "book").id();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), SessionsCommand.class.getName()));
        command.addAll(suite().commandStore());
        command.addAll(List.of("console", "--port", "0"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put(SessionsCommand.TOKEN_VARIABLE, TOKEN);
        Process process = builder.start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String first = out.readLine();
            while (first != null && !first.startsWith("console: ")) {
                first = out.readLine(); // the JVM's own warnings, if any
            }
            assertNotNull(first, "the console printed no address");
            Matcher address = Pattern.compile("^console: (http://127\\.0\\.0\\.1:\\d+)/ \\(actions allowed after"
                    + " sign-in\\)$").matcher(first);
            assertTrue(address.find(), first);
            base = address.group(1);
            HttpResponse<String> page = get("/session?id=" + id);
            assertEquals(200, page.statusCode(), page.body());
            assertTrue(page.body().contains("Order.confirm(<span class=\"file\">Order.java:"), page.body());
            assertEquals(303, post("/sign-in", "token=" + Html.query(TOKEN)).statusCode());
        } finally {
            process.destroy();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the console stops when told to");
        }
    }
}
