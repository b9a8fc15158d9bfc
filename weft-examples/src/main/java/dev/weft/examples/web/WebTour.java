package dev.weft.examples.web;

import dev.weft.sessions.SessionStore;

import java.io.IOException;
import java.io.PrintStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The web demo visited by a program, for the examples command: the server runs on a free port
 * over a SQLite file in a temporary directory, a visitor fills in both forms by HTTP requests
 * (with the back button and a retry), and the server is stopped and started again in the middle
 * of the longer form, which carries on from the store.
 */
public final class WebTour {

    private static final Pattern QUESTION = Pattern.compile("<p id=\"question\">(.*?)</p>");
    private static final Pattern RESULT = Pattern.compile("<p id=\"result\">(.*?)</p>");
    private static final Pattern VERSION = Pattern.compile("name=\"version\" value=\"(\\d+)\"");

    private final HttpClient client = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    private final PrintStream out;
    private int port;
    private String page;

    private WebTour(PrintStream out) {
        this.out = out;
    }

    /** Visits both forms, printing each page's question or result. */
    public static void tour(PrintStream out) throws Exception {
        Path directory = Files.createTempDirectory("weft-web");
        Path database = directory.resolve("sessions.db");
        WebTour visitor = new WebTour(out);
        try {
            try (WebDemo demo = WebDemo.start(SessionStore.sqlite(database), 0)) {
                visitor.port = demo.port();
                visitor.get("/questions?new");
                for (String answer : new String[] {"John Doe", "Genovia", "twenty-eight", "28", "nospam@nospam.at"}) {
                    visitor.post("/questions", "answer", answer);
                }
                visitor.get("/register?new");
                visitor.post("/register", "answer", "Ada");
                visitor.post("/register", "answer", "ada at example.org");
                visitor.post("/register", "answer", "ada@example.org");
                visitor.post("/register", "back", "1");
            }
            out.println("(the server stops, and a new one starts on the same database)");
            try (WebDemo demo = WebDemo.start(SessionStore.sqlite(database), 0)) {
                visitor.port = demo.port();
                visitor.get("/register");
                visitor.post("/register", "answer", "ada@example.org");
                visitor.post("/register", "answer", "pro");
                visitor.post("/register", "answer", "yes");
            }
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private void get(String path) throws IOException, InterruptedException {
        out.println("GET " + path);
        show(client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    private void post(String path, String field, String value) throws IOException, InterruptedException {
        Matcher version = VERSION.matcher(page);
        if (!version.find()) {
            throw new IllegalStateException("the page has no form: " + page);
        }
        out.println("POST " + path + " " + field + "=" + value);
        String form = "version=" + version.group(1) + "&" + field + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
        show(client.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private void show(String body) {
        page = body;
        Matcher question = QUESTION.matcher(body);
        Matcher result = RESULT.matcher(body);
        if (question.find()) {
            out.println("  " + unescape(question.group(1)).replace("<br>", "\n  "));
        } else if (result.find()) {
            out.println("  " + unescape(result.group(1)));
        } else {
            throw new IllegalStateException("an unexpected page: " + body);
        }
    }

    private static String unescape(String html) {
        return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&");
    }
}
