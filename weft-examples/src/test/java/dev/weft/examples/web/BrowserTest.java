package dev.weft.examples.web;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each browser test has: Chromium installed where missing (the class is skipped, saying
 * why, only where it cannot be), a headless browser of its own for each test, a free port for
 * the demo server the test starts ({@link DemoServer}), a directory for its store, and every
 * process stopped after the test.
 */
abstract class BrowserTest {

    @TempDir
    Path directory;

    /** The demo server the test started, if any: stopped after the test. */
    Process server;
    WebDriver browser;
    int port;

    private Chromium chromium;

    @BeforeAll
    static void installChromium() throws Exception {
        Chromium.install();
    }

    @BeforeEach
    void startBrowser() throws Exception {
        port = Chromium.freePort();
        chromium = Chromium.start();
        browser = chromium.browser();
        browser.resize(1440, 960);
    }

    @AfterEach
    void stopAll() throws Exception {
        try {
            if (chromium != null) {
                chromium.close();
            }
        } finally {
            if (server != null) {
                server.destroyForcibly();
                server.waitFor(1, TimeUnit.MINUTES);
            }
        }
    }

    /** The address of {@code path} on the demo server. */
    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
