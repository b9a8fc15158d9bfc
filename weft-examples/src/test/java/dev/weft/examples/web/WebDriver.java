package dev.weft.examples.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough of the W3C WebDriver protocol to drive headless Chromium through
 * {@code chromedriver}: open a page, find an element by CSS selector, type, click, read text.
 */
final class WebDriver implements AutoCloseable {

    private static final Pattern SESSION = Pattern.compile("\"sessionId\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern ELEMENT = Pattern.compile("\"element-6066-11e4-a52e-4f735466cecf\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern VALUE = Pattern.compile("\"value\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    private final String base;
    private final String session;

    /** A new headless Chromium session of the chromedriver at {@code port}. */
    WebDriver(int port) throws IOException, InterruptedException {
        this.base = "http://127.0.0.1:" + port;
        String capabilities = "{\"capabilities\":{\"alwaysMatch\":{\"browserName\":\"chrome\",\"goog:chromeOptions\":"
                + "{\"binary\":\"/usr/bin/chromium\",\"args\":[\"--headless=new\",\"--no-sandbox\","
                + "\"--disable-gpu\",\"--disable-dev-shm-usage\"]}}}}";
        String reply = send("POST", "/session", capabilities);
        Matcher id = SESSION.matcher(reply);
        if (!id.find()) {
            throw new IOException("chromedriver started no session: " + reply);
        }
        this.session = id.group(1);
    }

    void open(String url) throws IOException, InterruptedException {
        send("POST", "/session/" + session + "/url", "{\"url\":\"" + url + "\"}");
    }

    /** The element that {@code css} selects on the current page. */
    String find(String css) throws IOException, InterruptedException {
        String reply = send("POST", "/session/" + session + "/element",
                "{\"using\":\"css selector\",\"value\":\"" + css.replace("\"", "\\\"") + "\"}");
        Matcher element = ELEMENT.matcher(reply);
        if (!element.find()) {
            throw new IOException("no element " + css + ": " + reply);
        }
        return element.group(1);
    }

    /** Whether the current page has an element that {@code css} selects. */
    boolean exists(String css) throws InterruptedException {
        try {
            find(css);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    void type(String css, String text) throws IOException, InterruptedException {
        send("POST", "/session/" + session + "/element/" + find(css) + "/value",
                "{\"text\":\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
    }

    void click(String css) throws IOException, InterruptedException {
        send("POST", "/session/" + session + "/element/" + find(css) + "/click", "{}");
    }

    /**
     * Clicks the element {@code css} selects, which loads another page (a link, a form's button),
     * and waits until the page it was on is gone: until then its elements are still found.
     */
    void clickToLoad(String css) throws IOException, InterruptedException {
        String page = find("html");
        click(css);
        for (int attempt = 0; attempt < 600; attempt++) {
            try {
                send("GET", "/session/" + session + "/element/" + page + "/name", null);
            } catch (IOException e) {
                if (e.getMessage().contains("stale element reference")
                        || e.getMessage().contains("does not belong to the document")) {
                    return; // the two ways chromedriver says the element's document is gone
                }
                throw e;
            }
            Thread.sleep(50);
        }
        throw new IOException("clicking " + css + " loaded no other page within 30 s");
    }

    /** The visible text of the element {@code css} selects. */
    String text(String css) throws IOException, InterruptedException {
        Matcher value = VALUE.matcher(send("GET", "/session/" + session + "/element/" + find(css) + "/text", null));
        if (!value.find()) {
            throw new IOException("no text in " + css);
        }
        return unescape(value.group(1));
    }

    /** Sets the browser window's size, in CSS pixels. */
    void resize(int width, int height) throws IOException, InterruptedException {
        send("POST", "/session/" + session + "/window/rect", "{\"width\":" + width + ",\"height\":" + height + "}");
    }

    /** Writes what the browser shows now, as a PNG, to {@code file}. */
    void screenshot(java.nio.file.Path file) throws IOException, InterruptedException {
        String reply = send("GET", "/session/" + session + "/screenshot", null);
        int start = reply.indexOf("\"value\":\"") + "\"value\":\"".length(); // base64: no quote or escape inside
        int end = reply.indexOf('"', start);
        if (start < "\"value\":\"".length() || end < 0) {
            throw new IOException("the browser gave no screenshot: " + reply.substring(0, Math.min(200, reply.length())));
        }
        java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
        java.nio.file.Files.write(file, java.util.Base64.getDecoder().decode(reply.substring(start, end)));
    }

    /** The address of the page the browser shows. */
    String url() throws IOException, InterruptedException {
        Matcher value = VALUE.matcher(send("GET", "/session/" + session + "/url", null));
        if (!value.find()) {
            throw new IOException("the browser gave no address");
        }
        return unescape(value.group(1));
    }

    /** A JSON string's content, its escapes undone. */
    private static String unescape(String json) {
        StringBuilder text = new StringBuilder(json.length());
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c != '\\' || i + 1 == json.length()) {
                text.append(c);
                continue;
            }
            char escaped = json.charAt(++i);
            switch (escaped) {
                case 'n' -> text.append('\n');
                case 't' -> text.append('\t');
                case 'r' -> text.append('\r');
                case 'b' -> text.append('\b');
                case 'f' -> text.append('\f');
                case 'u' -> {
                    text.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> text.append(escaped);
            }
        }
        return text.toString();
    }

    @Override
    public void close() throws IOException {
        try {
            send("DELETE", "/session/" + session, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while ending the browser session " + session);
        }
    }

    private String send(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(1));
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(method + " " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }
}
