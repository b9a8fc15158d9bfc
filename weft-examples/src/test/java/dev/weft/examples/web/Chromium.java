package dev.weft.examples.web;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium for the browser tests: Debian's chromium and chromium-driver, installed by
 * the build's own script ({@code src/test/scripts/install-chromium.sh}) where missing, and one
 * {@code chromedriver} process with one browser session, driven through {@link WebDriver}.
 * A test is skipped, saying why, only where they cannot be installed.
 */
final class Chromium implements AutoCloseable {

    private static final String MISSING = "chromium and chromium-driver are not installed and cannot be"
            + " installed here (src/test/scripts/install-chromium.sh needs root and apt-get)";

    private final Process chromedriver;
    private final WebDriver browser;

    private Chromium(Process chromedriver, WebDriver browser) {
        this.chromedriver = chromedriver;
        this.browser = browser;
    }

    /** Installs Chromium where it is missing; skips the calling test class where it cannot be. */
    static void install() throws IOException, InterruptedException {
        Process script = new ProcessBuilder("sh", "src/test/scripts/install-chromium.sh").inheritIO().start();
        boolean ended = script.waitFor(15, TimeUnit.MINUTES);
        if (!ended) {
            script.destroyForcibly();
        }
        Assumptions.assumeTrue(ended && script.exitValue() == 0, MISSING);
    }

    /** A chromedriver of its own, on a free port, and a new headless browser session of it. */
    static Chromium start() throws Exception {
        int port = freePort();
        Process chromedriver = new ProcessBuilder("chromedriver", "--port=" + port)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            awaitReady(URI.create("http://127.0.0.1:" + port + "/status"));
            return new Chromium(chromedriver, new WebDriver(port));
        } catch (Exception | Error e) {
            chromedriver.destroyForcibly();
            throw e;
        }
    }

    WebDriver browser() {
        return browser;
    }

    /** Ends the browser session and stops chromedriver. */
    @Override
    public void close() throws Exception {
        try {
            browser.close();
        } finally {
            chromedriver.destroyForcibly();
            chromedriver.waitFor(1, TimeUnit.MINUTES);
        }
    }

    /** A port no server listens on now. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void awaitReady(URI status) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        for (int attempt = 0; attempt < 600; attempt++) {
            try {
                if (client.send(HttpRequest.newBuilder(status).build(), HttpResponse.BodyHandlers.ofString())
                        .statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IOException("chromedriver never answered at " + status);
    }
}
