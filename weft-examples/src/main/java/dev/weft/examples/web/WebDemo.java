package dev.weft.examples.web;

import dev.weft.AsymRunnable;
import dev.weft.Engine;
import dev.weft.examples.session.Interaction;
import dev.weft.examples.session.RemindedInteraction;
import dev.weft.examples.session.Reminders;
import dev.weft.examples.session.TransportedClock;
import dev.weft.sessions.SessionConflictException;
import dev.weft.sessions.SessionConsole;
import dev.weft.sessions.SessionException;
import dev.weft.sessions.SessionInfo;
import dev.weft.sessions.SessionStatus;
import dev.weft.sessions.SessionStep;
import dev.weft.sessions.SessionStore;
import dev.weft.sessions.Sessions;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The web demo of durable sessions: each form is one method ({@link Interaction}, thesis 5.2's
 * interaction, {@link Registration}, with a back button and a retry, and
 * {@link RemindedInteraction}, which waits a day for each answer and has this server's worker
 * remind the visitor when none came: a button lets a day pass on this server's clock, and
 * {@link Checkout}, whose payment fails while {@code /payments} says the service is down, left
 * failed for an operator to retry from the console), and each request
 * resumes the visitor's session from the store (named by a cookie), runs it to its next question
 * and stores it again. No state is kept in the server's memory, so the server may be restarted
 * in the middle of a visitor's form, or a second server may serve the next request.
 *
 * <pre>
 * java ... dev.weft.examples.web.WebDemo [--port 8080] [--sqlite sessions.db | --postgres URL [--user U] [--password P]]
 *                                      [--engine native | woven]
 * </pre>
 *
 * <p>Its steps run on the engine {@code --engine} names (default: {@link Engine#defaultEngine()}),
 * and each page says which: servers of either engine share one store and resume each other's
 * sessions.
 *
 * <p>Served by Jetty, whose core handler API needs no servlet container. Pages:
 * {@code /} (the list), {@code /questions}, {@code /register}, {@code /reminded}, {@code /checkout},
 * {@code /payments}; {@code ?new} starts a form
 * afresh. Under {@code /console}, the operator's {@link SessionConsole} of the same store, mounted in
 * this server as an application mounts it in its own: read-only unless the environment
 * variable {@code WEFT_CONSOLE_TOKEN} holds a token, which allows its actions.
 */
public final class WebDemo implements AutoCloseable {

    /**
     * One form: its path, its title, its body, whether its pages have a back button, and whether
     * they have a button that lets a day pass (for a body that waits a day for each answer).
     */
    private record Form(String path, String title, Supplier<AsymRunnable<String, String>> body, boolean back,
            boolean days) {
    }

    private static final List<Form> FORMS = List.of(
            new Form("questions", "Thesis 5.2: the interaction", Interaction::new, false, false),
            new Form("register", "A longer form, with a back button and a retry", Registration::new, true, false),
            new Form("reminded", "Thesis 5.2 with reminders: a day without an answer, and a worker reminds you",
                    RemindedInteraction::new, false, true),
            new Form("checkout", "A checkout whose payment fails while the payment service is down (see /payments),"
                    + " and an operator retries it from the console", Checkout::new, false, false));

    /** Where the console is mounted. */
    private static final String CONSOLE = "/console";
    /** More than the console takes: it refuses a larger form itself. */
    private static final int CONSOLE_BODY_LIMIT = 128 * 1024;

    /** How long a request that lets a day pass waits for the worker's reminder before it shows the page anyway. */
    private static final Duration REMINDER_WAIT = Duration.ofSeconds(30);

    private final SessionStore store;
    private final Sessions sessions;
    private final Engine engine;
    /** This server's clock: real time, moved on a day by each "let a day pass" (a demonstration's shortcut). */
    private final TransportedClock clock = new TransportedClock(Clock.systemUTC());
    private final Server server;
    private final SessionConsole console;

    private WebDemo(SessionStore store, int port, Engine engine, String consoleToken) throws Exception {
        this.store = store;
        this.engine = engine;
        this.sessions = Sessions.builder(store).classLoader(WebDemo.class.getClassLoader()).engine(engine)
                .clock(clock).workers(1).pollEvery(Duration.ofMillis(200)).build();
        this.console = SessionConsole.builder(sessions).path(CONSOLE).title("Web demo sessions").clock(clock)
                .token(consoleToken).build();
        this.server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                return serve(request, response, callback);
            }
        });
        server.start();
    }

    /**
     * A server on {@code port} (0: any free one) over {@code store}, which it closes when closed,
     * running its steps on the default engine.
     */
    public static WebDemo start(SessionStore store, int port) throws Exception {
        return start(store, port, Engine.defaultEngine());
    }

    /** A server on {@code port} (0: any free one) over {@code store}, which it closes when closed, running its steps on {@code engine}. */
    public static WebDemo start(SessionStore store, int port, Engine engine) throws Exception {
        return start(store, port, engine, null);
    }

    /**
     * A server on {@code port} (0: any free one) over {@code store}, which it closes when closed,
     * running its steps on {@code engine}, its console's actions allowed by {@code consoleToken}
     * (null: a read-only console).
     */
    public static WebDemo start(SessionStore store, int port, Engine engine, String consoleToken) throws Exception {
        try {
            return new WebDemo(store, port, engine, consoleToken);
        } catch (Exception | Error e) {
            store.close();
            throw e;
        }
    }

    /** The port it listens on, at 127.0.0.1. */
    public int port() {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /** Stops the server and the node's worker, then closes the store. */
    @Override
    public void close() {
        try {
            server.stop();
            sessions.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the web demo's server", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the web demo's server: " + e, e);
        } finally {
            store.close();
        }
    }

    public static void main(String[] args) throws Exception {
        int port = 8080;
        Path sqlite = Path.of("sessions.db");
        String postgres = null;
        String user = null;
        String password = null;
        Engine engine = Engine.defaultEngine();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--sqlite" -> sqlite = Path.of(args[i + 1]);
                case "--postgres" -> postgres = args[i + 1];
                case "--user" -> user = args[i + 1];
                case "--password" -> password = args[i + 1];
                case "--engine" -> engine = Engine.valueOf(args[i + 1].toUpperCase(java.util.Locale.ROOT));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        SessionStore store = postgres != null ? SessionStore.postgres(postgres, user, password) : SessionStore.sqlite(sqlite);
        WebDemo demo = start(store, port, engine, System.getenv("WEFT_CONSOLE_TOKEN"));
        System.out.println("listening on http://127.0.0.1:" + demo.port() + "/ (sessions in " + store + ")");
        System.out.flush();
        demo.server.join();
    }

    // ---------------------------------------------------------------- requests

    private boolean serve(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        if (path.equals(CONSOLE) || path.startsWith(CONSOLE + "/")) {
            return serveConsole(request, response, callback);
        }
        if (path.equals("/payments")) {
            return payments(request, response, callback);
        }
        if (path.equals("/")) {
            StringBuilder links = new StringBuilder("<ul>");
            for (Form form : FORMS) {
                links.append("<li><a id=\"").append(form.path()).append("\" href=\"/").append(form.path())
                        .append("?new\">").append(escape(form.title())).append("</a></li>");
            }
            links.append("<li><a id=\"console\" href=\"").append(CONSOLE).append("/\">The operator's console of"
                    + " these sessions</a></li>");
            return page(response, callback, 200, "Weft: durable sessions", links + "</ul>");
        }
        Form form = FORMS.stream().filter(f -> path.equals("/" + f.path())).findFirst().orElse(null);
        if (form == null) {
            return page(response, callback, 404, "Not found", "<p>No page " + escape(path) + ".</p>");
        }
        Fields parameters = Request.getParameters(request);
        String cookie = "weft-" + form.path();
        String id = Request.getCookies(request).stream().filter(c -> c.getName().equals(cookie))
                .map(HttpCookie::getValue).findFirst().orElse(null);
        SessionInfo current = id == null || parameters.get("new") != null ? null
                : sessions.status(id).filter(info -> info.status() == SessionStatus.SUSPENDED).orElse(null);
        if (current == null) {
            SessionStep<String> step = sessions.start(form.body().get(), null);
            Response.addCookie(response, HttpCookie.build(cookie, step.id()).path("/").httpOnly(true).build());
            return question(response, callback, form, step.id(), step.version(), step.output());
        }
        if (form.days() && "POST".equals(request.getMethod()) && parameters.get("day") != null) {
            return aDayPasses(response, callback, form, id, current.version());
        }
        if (!"POST".equals(request.getMethod()) || parameters.get("version") == null) {
            return question(response, callback, form, id, current.version(),
                    (String) sessions.lastOutput(id).orElse(""));
        }
        String input = parameters.get("back") != null ? Registration.BACK : parameters.getValue("answer");
        long version;
        try {
            version = Long.parseLong(parameters.getValue("version"));
        } catch (NumberFormatException e) {
            return page(response, callback, 400, form.title(), "<p id=\"error\">The form's step, "
                    + escape(parameters.getValue("version")) + ", is not a number.</p><p><a href=\"/" + form.path()
                    + "\">Back to the form</a></p>");
        }
        try {
            SessionStep<String> step = sessions.resume(id, version, input == null ? "" : input);
            if (step.finished()) {
                Response.addCookie(response, HttpCookie.build(cookie, "").path("/").maxAge(0).build());
                return page(response, callback, 200, form.title(), "<p id=\"result\">" + escape(step.output())
                        + "</p><p><a id=\"again\" href=\"/" + form.path() + "?new\">Start again</a></p>");
            }
            return question(response, callback, form, id, step.version(), step.output());
        } catch (SessionConflictException e) {
            // a form sent twice, or a page from before: show where the session is now
            return question(response, callback, form, id, e.currentVersion(),
                    String.valueOf(Optional.ofNullable(e.lastOutput()).orElse("")));
        } catch (SessionException e) {
            return page(response, callback, 409, form.title(), "<p id=\"error\">" + escape(e.getMessage())
                    + "</p><p><a href=\"/" + form.path() + "?new\">Start again</a></p>");
        }
    }

    /**
     * The demo's payment service, switched down or up: a POST with {@code up=true} or
     * {@code up=false} switches it; the page says which it is.
     */
    private boolean payments(Request request, Response response, Callback callback) throws Exception {
        if ("POST".equals(request.getMethod())) {
            String up = Request.getParameters(request).getValue("up");
            Checkout.PAYMENTS_UP.set(Boolean.parseBoolean(up));
        }
        boolean up = Checkout.PAYMENTS_UP.get();
        return page(response, callback, 200, "The payment service", "<p id=\"payments\">The payment service is "
                + (up ? "up" : "down") + ".</p><form method=\"post\" action=\"/payments\"><input type=\"hidden\""
                + " name=\"up\" value=\"" + !up + "\"><button id=\"switch\" type=\"submit\">"
                + (up ? "Take it down" : "Bring it back") + "</button></form>");
    }

    /** The console's answer to {@code request}: Jetty's request and response in the console's terms. */
    private boolean serveConsole(Request request, Response response, Callback callback) throws Exception {
        Map<String, String> headers = new HashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.putIfAbsent(field.getLowerCaseName(), field.getValue());
        }
        byte[] body;
        try (InputStream in = Content.Source.asInputStream(request)) {
            body = in.readNBytes(CONSOLE_BODY_LIMIT);
        }
        SessionConsole.Response answer = console.handle(new SessionConsole.Request(request.getMethod(),
                request.getHttpURI().getPath(), request.getHttpURI().getQuery(), headers, body));
        response.setStatus(answer.status());
        answer.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        response.write(true, ByteBuffer.wrap(answer.body()), callback);
        return true;
    }

    /**
     * Moves this server's clock on by a day, as if the visitor had left the form for one, and
     * shows the page once this node's worker has run the step the day's end made due (the
     * reminder), or after {@link #REMINDER_WAIT} as it is.
     */
    private boolean aDayPasses(Response response, Callback callback, Form form, String id, long version)
            throws InterruptedException {
        clock.advance(RemindedInteraction.PATIENCE);
        Reminders.awaitWorkerStep(sessions, id, version, REMINDER_WAIT);
        SessionInfo now = sessions.status(id).orElseThrow();
        return question(response, callback, form, id, now.version(), (String) sessions.lastOutput(id).orElse(""));
    }

    private boolean question(Response response, Callback callback, Form form, String id, long version,
            String question) {
        String html = "<form method=\"post\" action=\"/" + form.path() + "\">"
                + "<p id=\"question\">" + escape(question).replace("\n", "<br>") + "</p>"
                + "<input id=\"answer\" name=\"answer\" autofocus autocomplete=\"off\">"
                + "<input type=\"hidden\" name=\"version\" value=\"" + version + "\">"
                + " <button id=\"next\" type=\"submit\">Next</button>"
                + (form.back() ? " <button id=\"back\" type=\"submit\" name=\"back\" value=\"1\">Back</button>" : "")
                + (form.days() ? " <button id=\"day\" type=\"submit\" name=\"day\" value=\"1\">Let a day pass</button>"
                        + "<p id=\"clock\">This server's clock: " + clock.instant().truncatedTo(ChronoUnit.SECONDS)
                        + (clock.ahead().isZero() ? "" : " (" + days(clock.ahead()) + " ahead of real time)")
                        + "</p>" : "")
                + "</form><p id=\"served\">session " + escape(id) + ", step " + version + ", on the "
                + engine.name().toLowerCase(java.util.Locale.ROOT) + " engine, served by process "
                + ProcessHandle.current().pid() + "</p>";
        return page(response, callback, 200, form.title(), html);
    }

    private static String days(Duration duration) {
        return duration.toDays() == 1 ? "a day" : duration.toDays() + " days";
    }

    private static boolean page(Response response, Callback callback, int status, String title, String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        Content.Sink.write(response, true, "<!doctype html><html><head><meta charset=\"utf-8\"><title>"
                + escape(title) + "</title></head><body><h1>" + escape(title) + "</h1>" + body + "</body></html>",
                callback);
        return true;
    }

    private static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                case '"' -> escaped.append("&quot;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
