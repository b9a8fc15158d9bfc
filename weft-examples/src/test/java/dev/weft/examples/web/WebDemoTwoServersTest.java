package dev.weft.examples.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.sessions.testing.PostgresServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The web demo with PostgreSQL behind two server processes, the first on the native engine and
 * the second on the woven one: a visitor's requests go to one server and the other in turn, and
 * each resumes the visitor's session from the database, stored by the other engine; a form sent
 * to both servers at once is taken by one of them, exactly once.
 */
class WebDemoTwoServersTest {

    private static final Pattern QUESTION = Pattern.compile("<p id=\"question\">(.*?)</p>");
    private static final Pattern VERSION = Pattern.compile("name=\"version\" value=\"(\\d+)\"");
    private static final Pattern SERVED = Pattern.compile("on the (\\w+) engine, served by process (\\d+)");
    /** The engine of each server. */
    private static final String[] ENGINES = {"native", "woven"};

    private final HttpClient visitor = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    private final List<Process> servers = new ArrayList<>();
    private final List<Integer> ports = new ArrayList<>();

    @BeforeEach
    void startTwoServers() throws IOException {
        String url = PostgresServer.shared().newDatabase("web");
        for (int i = 0; i < 2; i++) {
            List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                    "--add-exports", "java.base/jdk.internal.vm=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), WebDemo.class.getName(),
                    "--port", "0", "--postgres", url, "--user", "postgres", "--engine", ENGINES[i]));
            Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
            servers.add(server);
            BufferedReader output = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            String line = output.readLine();
            Matcher port = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/").matcher(String.valueOf(line));
            if (!port.find()) {
                throw new IOException("demo server " + i + " did not start: " + line);
            }
            ports.add(Integer.parseInt(port.group(1)));
        }
    }

    @AfterEach
    void stopServers() throws InterruptedException {
        for (Process server : servers) {
            server.destroyForcibly();
            server.waitFor(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void eachRequestResumesTheSessionOnWhicheverServerGetsIt() throws Exception {
        String page = get(0, "/questions?new");
        List<String> processes = new ArrayList<>(List.of(served(page)));
        String[] answers = {"John Doe", "Genovia", "28", "nospam@nospam.at"};
        String[] questions = {"Please enter your country:", "Please enter your age:",
            "Please enter your email address:"};
        for (int i = 0; i < answers.length; i++) {
            page = post(i % 2 == 0 ? 1 : 0, "/questions", version(page), answers[i]);
            if (i < questions.length) {
                assertEquals(questions[i], question(page));
                processes.add(served(page));
            }
        }
        assertTrue(page.contains("Name: John Doe, Country: Genovia, Age: 28, Email: nospam@nospam.at"), page);
        assertNotEquals(processes.get(0), processes.get(1), "the two servers took turns");
        assertEquals(processes.get(0), processes.get(2));
        assertTrue(processes.get(0).endsWith(" native") && processes.get(1).endsWith(" woven"),
                "each step ran on its server's engine: " + processes);
    }

    @Test
    void aFormSentToBothServersAtOnceIsTakenOnce() throws Exception {
        String page = get(0, "/register?new");
        page = post(1, "/register", version(page), "Ada");
        String version = version(page);
        CompletableFuture<String> one = postAsync(0, "/register", version, "ada@example.org");
        CompletableFuture<String> other = postAsync(1, "/register", version, "ada@example.org");
        List<String> pages = List.of(one.get(1, TimeUnit.MINUTES), other.get(1, TimeUnit.MINUTES));
        // one server ran the step; the other found it busy or already taken, and ran nothing
        long taken = pages.stream().filter(p -> "Your plan: basic or pro?".equals(question(p))).count();
        assertTrue(taken >= 1, pages.toString());
        page = get(1, "/register");
        assertEquals("Your plan: basic or pro?", question(page));
        assertEquals("3", version(page), "the e-mail step ran once: the session is at step 3");
    }

    @Test
    void aFormWhoseStepIsNotANumberIsRefusedWithFourHundredAndChangesNothing() throws Exception {
        String page = get(0, "/questions?new");
        String version = version(page);
        for (String bad : List.of("", "two", "99999999999999999999")) {
            HttpResponse<String> refused = visitor.send(HttpRequest.newBuilder(uri(1, "/questions"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("version=" + URLEncoder.encode(bad, StandardCharsets.UTF_8)
                            + "&answer=Ada")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(400, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("is not a number"), refused.body());
        }
        page = get(1, "/questions");
        assertEquals("Please enter your name:", question(page));
        assertEquals(version, version(page), "no step ran");
    }

    private String get(int server, String path) throws IOException, InterruptedException {
        return visitor.send(HttpRequest.newBuilder(uri(server, path)).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    private String post(int server, String path, String version, String answer) throws Exception {
        return postAsync(server, path, version, answer).get(1, TimeUnit.MINUTES);
    }

    private CompletableFuture<String> postAsync(int server, String path, String version, String answer) {
        String form = "version=" + version + "&answer=" + URLEncoder.encode(answer, StandardCharsets.UTF_8);
        return visitor.sendAsync(HttpRequest.newBuilder(uri(server, path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString())
                .thenApply(HttpResponse::body);
    }

    private URI uri(int server, String path) {
        return URI.create("http://127.0.0.1:" + ports.get(server) + path);
    }

    private static String question(String page) {
        Matcher question = QUESTION.matcher(page);
        return question.find() ? question.group(1) : null;
    }

    private static String version(String page) {
        Matcher version = VERSION.matcher(page);
        if (!version.find()) {
            throw new AssertionError("no form on the page: " + page);
        }
        return version.group(1);
    }

    private static String served(String page) {
        Matcher served = SERVED.matcher(page);
        if (!served.find()) {
            throw new AssertionError("no process on the page: " + page);
        }
        return served.group(2) + " " + served.group(1);
    }
}
