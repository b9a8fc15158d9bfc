package dev.weft.sessions;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The sessions of a store in a browser: an operator's console. Its pages list the stored sessions
 * with filters and paging (status, what they wait for, due time, build, point, failure, age),
 * counted by status and by build with this node's verdict on each build; and show one session:
 * what the store says about it, whether this node takes it (and why not), its stack as source
 * lines with each frame's variables and their values ({@link Sessions#stack}, read as a resume
 * reads it and never run), its failure, its last output and its step history. A row that is not
 * to be trusted (see {@link Sessions.Builder#sealWith}) shows why, never its data.
 *
 * <p>Actions (retry a failed session, cancel one, send it a message, remove it) each ask for a
 * confirmation first, and are allowed only when the console has a token
 * ({@link Builder#token}) and the request proves it knows it: the browser signs in with it
 * once (a cookie that holds an HMAC of it, {@code HttpOnly}, {@code SameSite=Strict}), or a
 * script sends it as {@code Authorization: Bearer}. Each action's form carries a field derived
 * from the token, and a request that the browser says comes from another site is refused, so
 * that no other page can make a signed-in browser act. Without a token the console is read-only.
 * Pages are served with a content security policy that allows no script and no resource from
 * elsewhere: the console has no script at all.
 *
 * <p>It is a handler, not a server: {@link #handle(Request)} answers one request, whatever
 * server received it, and {@link #httpHandler()} adapts it to the JDK's own HTTP server
 * ({@code com.sun.net.httpserver}), on which {@link SessionsCommand}'s {@code console} runs it.
 * An application mounts it under a path of its own server ({@link Builder#path}):
 *
 * <pre>{@code
 * SessionConsole console = SessionConsole.builder(sessions).path("/weft").token(System.getenv("WEFT_CONSOLE_TOKEN")).build();
 * HttpServer server = HttpServer.create(new InetSocketAddress(8081), 0);
 * server.createContext("/weft", console.httpHandler());
 * server.start();
 * }</pre>
 *
 * <p>Immutable once built; {@link #handle} may be called from any number of threads at once.
 */
public final class SessionConsole {

    /**
     * One HTTP request as the console reads it.
     *
     * @param method  the request's method ({@code GET}, {@code POST}, ...)
     * @param path    its path, as sent (percent-encoded), starting with the console's {@link Builder#path}
     * @param query   its query string, as sent, without the {@code ?}; null or empty for none
     * @param headers its headers, each name in lower case, with its first value
     * @param body    its body; empty for none
     */
    public record Request(String method, String path, String query, Map<String, String> headers, byte[] body) {

        /**
         * Checks its parts.
         *
         * @throws NullPointerException if {@code method}, {@code path}, {@code headers} or {@code body} is null
         */
        public Request {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(path, "path");
            headers = Map.copyOf(headers);
            Objects.requireNonNull(body, "body");
        }
    }

    /**
     * The console's answer to a request.
     *
     * @param status  the HTTP status
     * @param headers the headers to send, by name
     * @param body    the body to send
     */
    public record Response(int status, Map<String, String> headers, byte[] body) {
    }

    /** Builds a console of one {@link Sessions}. Not thread-safe. */
    public static final class Builder {
        private final Sessions sessions;
        private String path = "";
        private String token;
        private String title = "Weft sessions";
        private Clock clock = Clock.systemUTC();

        private Builder(Sessions sessions) {
            this.sessions = Objects.requireNonNull(sessions, "sessions");
        }

        /**
         * The path the console is mounted at in its server, such as {@code /weft}; by default
         * the root. Its links and forms are made under it.
         *
         * @param mountedAt a path that starts with {@code /} and does not end with one, or empty for the root
         * @return this builder
         * @throws IllegalArgumentException if it is not such a path
         */
        public Builder path(String mountedAt) {
            if (!mountedAt.isEmpty() && (!mountedAt.startsWith("/") || mountedAt.endsWith("/")
                    || !mountedAt.matches("[A-Za-z0-9/._~-]*"))) {
                throw new IllegalArgumentException("a console's path starts with '/', does not end with one and holds"
                        + " letters, digits and / . _ ~ - only, such as /weft; not '" + mountedAt + "'");
            }
            this.path = mountedAt;
            return this;
        }

        /**
         * The token that allows actions: without one the console is read-only.
         *
         * @param secret at least 16 characters (such as 32 random bytes in hex), or null for read-only
         * @return this builder
         * @throws IllegalArgumentException if it is shorter than 16 characters
         */
        public Builder token(String secret) {
            if (secret != null && secret.length() < 16) {
                throw new IllegalArgumentException("a console's token has at least 16 characters (it stands for the"
                        + " right to cancel and remove sessions), not " + secret.length());
            }
            this.token = secret;
            return this;
        }

        /**
         * The name the console's pages carry, such as the store's or the application's.
         *
         * @param name the name; by default "Weft sessions"
         * @return this builder
         */
        public Builder title(String name) {
            this.title = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * The clock ages and due times are shown against; by default the system's.
         *
         * @param time the clock
         * @return this builder
         */
        public Builder clock(Clock time) {
            this.clock = Objects.requireNonNull(time, "time");
            return this;
        }

        /**
         * The console.
         *
         * @return a console of these settings
         */
        public SessionConsole build() {
            return new SessionConsole(this);
        }
    }

    /**
     * A builder of a console of {@code sessions}: the store they read, with their key, class
     * loader and verdicts.
     *
     * @param sessions the sessions to show
     * @return a builder, read-only and mounted at the root until told otherwise
     */
    public static Builder builder(Sessions sessions) {
        return new Builder(sessions);
    }

    /** The actions, by the name their forms carry. */
    enum Action {
        RETRY("retry", "Retry", "Retry session", "retried"),
        CANCEL("cancel", "Cancel", "Cancel session", "cancelled"),
        SEND("send", "Send a message", "Send a message to session", "sent"),
        REMOVE("remove", "Remove", "Remove session", "removed");

        final String name;
        final String label;
        /** The confirmation's question, before the session's id. */
        final String question;
        final String done;

        Action(String name, String label, String question, String done) {
            this.name = name;
            this.label = label;
            this.question = question;
            this.done = done;
        }

        static Optional<Action> named(String name) {
            for (Action action : values()) {
                if (action.name.equals(name)) {
                    return Optional.of(action);
                }
            }
            return Optional.empty();
        }
    }

    private static final String STYLESHEET = "console.css";
    private static final int MAX_BODY = 64 * 1024;

    private final Sessions sessions;
    private final String path;
    private final ConsoleAuth auth;
    private final ConsolePages pages;
    private final byte[] stylesheet;

    private SessionConsole(Builder builder) {
        this.sessions = builder.sessions;
        this.path = builder.path;
        this.auth = new ConsoleAuth(builder.token);
        this.pages = new ConsolePages(builder.path, builder.title, builder.clock);
        this.stylesheet = stylesheet();
    }

    private static byte[] stylesheet() {
        try (InputStream in = SessionConsole.class.getResourceAsStream(STYLESHEET)) {
            if (in == null) {
                throw new IllegalStateException(STYLESHEET + " is missing from weft-sessions' jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + STYLESHEET + " from weft-sessions' jar", e);
        }
    }

    /**
     * Answers {@code request}: a page, the stylesheet, a redirect after an action, or an error
     * page (404 for a path the console does not have, 405 for a method it does not take, 403
     * for a change it does not allow, 400 for a malformed request). Errors of the store are
     * shown on the page, never thrown.
     *
     * @param request the request, whose path starts with the console's path
     * @return the response
     */
    public Response handle(Request request) {
        String route = route(request.path());
        boolean signedIn = auth.signedIn(request.headers());
        ConsolePages.Viewer viewer = new ConsolePages.Viewer(auth.allowsChanges(), signedIn, auth.formValue());
        try {
            if (route == null) {
                return page(404, pages.message(viewer, "Not found", "The console has no page "
                        + request.path() + "."));
            }
            return switch (request.method()) {
                case "GET", "HEAD" -> get(route, parameters(request.query()), viewer);
                case "POST" -> post(route, request, viewer);
                default -> page(405, pages.message(viewer, "Method not allowed", "The console takes GET and POST, not "
                        + request.method() + "."));
            };
        } catch (IllegalArgumentException e) {
            return page(400, pages.message(viewer, "Bad request", e.getMessage()));
        } catch (SessionStoreUnavailableException e) {
            return page(503, pages.message(viewer, "The store cannot be reached", e.getMessage()));
        } catch (SessionException e) {
            return page(409, pages.message(viewer, "The console cannot show this", e.getMessage()));
        }
    }

    /** The route of {@code requestPath} under the console's path ("" for its root), or null if it is not under it. */
    private String route(String requestPath) {
        if (!requestPath.startsWith(path)) {
            return null;
        }
        String rest = requestPath.substring(path.length());
        return rest.isEmpty() || rest.equals("/") ? "" : rest.startsWith("/") ? rest.substring(1) : null;
    }

    private Response get(String route, Map<String, List<String>> parameters, ConsolePages.Viewer viewer) {
        return switch (route) {
            case "" -> page(200, listPage(parameters, viewer));
            case "session" -> sessionPage(one(parameters, "id"), one(parameters, "done"), viewer);
            case "confirm" -> confirmPage(one(parameters, "id"), action(one(parameters, "action")), viewer, null);
            case "sign-in" -> page(200, pages.signIn(viewer, null));
            case STYLESHEET -> new Response(200, Map.of("Content-Type", "text/css; charset=utf-8",
                    "Cache-Control", "max-age=3600", "X-Content-Type-Options", "nosniff"), stylesheet);
            default -> page(404, pages.message(viewer, "Not found", "The console has no page /" + route + "."));
        };
    }

    private Response post(String route, Request request, ConsolePages.Viewer viewer) {
        if (request.body().length > MAX_BODY) {
            return page(413, pages.message(viewer, "Too large", "A form of the console is smaller than "
                    + MAX_BODY + " bytes."));
        }
        String crossSite = ConsoleAuth.crossSite(request.headers());
        if (crossSite != null) {
            return page(403, pages.message(viewer, "Refused", "The request was refused: " + crossSite + "."));
        }
        Map<String, List<String>> form = parameters(new String(request.body(), StandardCharsets.UTF_8));
        return switch (route) {
            case "sign-in" -> signIn(one(form, "token"), viewer);
            case "sign-out" -> new Response(303, Map.of("Location", path + "/", "Set-Cookie",
                    ConsoleAuth.COOKIE + "=; Path=" + cookiePath() + "; Max-Age=0; HttpOnly; SameSite=Strict"),
                    new byte[0]);
            case "action" -> act(form, viewer);
            default -> page(404, pages.message(viewer, "Not found", "The console has no form /" + route + "."));
        };
    }

    private Response signIn(String token, ConsolePages.Viewer viewer) {
        if (!auth.allowsChanges()) {
            return page(403, pages.message(viewer, "Read-only", "This console has no token, so nobody signs in: it"
                    + " only shows the sessions. Start it with a token to allow actions."));
        }
        if (!auth.isToken(token)) {
            return page(403, pages.signIn(viewer, "That is not the console's token."));
        }
        return new Response(303, Map.of("Location", path + "/", "Set-Cookie", ConsoleAuth.COOKIE + "="
                + auth.cookieValue() + "; Path=" + cookiePath() + "; Max-Age=43200; HttpOnly; SameSite=Strict"),
                new byte[0]);
    }

    private String cookiePath() {
        return path.isEmpty() ? "/" : path;
    }

    private Response act(Map<String, List<String>> form, ConsolePages.Viewer viewer) {
        String id = one(form, "id");
        Action action = action(one(form, "action"));
        if (!auth.allowsChanges()) {
            return readOnly(viewer);
        }
        if (!viewer.signedIn()) {
            return page(403, pages.message(viewer, "Sign in first", "Only a signed-in operator may "
                    + action.label.toLowerCase(Locale.ROOT) + " a session."));
        }
        if (!auth.formMatches(one(form, ConsoleAuth.FORM_FIELD))) {
            return page(403, pages.message(viewer, "Refused", "The form did not come from this console's page."));
        }
        try {
            switch (action) {
                case RETRY -> sessions.retry(id);
                case CANCEL -> sessions.cancel(id);
                case SEND -> sessions.send(id, Objects.requireNonNullElse(one(form, "message"), ""));
                case REMOVE -> {
                    if (!sessions.remove(id)) {
                        throw new SessionException(id, "there is no such session", null);
                    }
                }
            }
        } catch (SessionFailedException | SessionRetryingException e) {
            return redirect(path + "/session?id=" + Html.query(id) + "&done=retried-failed");
        } catch (SessionException e) {
            return confirmPage(id, action, viewer, e.getMessage());
        }
        if (action == Action.REMOVE || sessions.status(id).isEmpty()) {
            String done = action == Action.REMOVE ? "removed" : "ended"; // a retry that finished: the store keeps none
            return redirect(path + "/?done=" + done + "&id=" + Html.query(id));
        }
        return redirect(path + "/session?id=" + Html.query(id) + "&done=" + action.done);
    }

    private static Response redirect(String location) {
        return new Response(303, Map.of("Location", location), new byte[0]);
    }

    private String listPage(Map<String, List<String>> parameters, ConsolePages.Viewer viewer) {
        ConsolePages.Filters filters = ConsolePages.Filters.of(parameters);
        SessionQuery query = filters.query(pages.now());
        SessionListing.Page<SessionListing.Listing> page = sessions.listing().listing(query);
        return pages.list(viewer, filters, page, sessions.listing().statusCounts(), sessions.builds(),
                one(parameters, "done"), one(parameters, "id"));
    }

    private Response sessionPage(String id, String done, ConsolePages.Viewer viewer) {
        if (id == null) {
            throw new IllegalArgumentException("The session page needs a session's id (?id=...).");
        }
        Optional<SessionListing.Detail> detail = sessions.listing().detail(id);
        if (detail.isEmpty()) {
            return page(404, pages.message(viewer, "No such session", "There is no session " + id
                    + " in this store" + ("removed".equals(done) ? " any more." : ".")));
        }
        SessionListing.Detail shown = detail.get();
        return page(200, pages.session(viewer, shown.listing(), shown.stack(), shown.output(), sessions.history(id),
                done));
    }

    private Response confirmPage(String id, Action action, ConsolePages.Viewer viewer, String error) {
        if (id == null) {
            throw new IllegalArgumentException("An action needs a session's id (id=...).");
        }
        if (!auth.allowsChanges()) {
            return readOnly(viewer);
        }
        if (!viewer.signedIn()) {
            return page(403, pages.signIn(viewer, "Sign in to " + action.label.toLowerCase(Locale.ROOT)
                    + " a session."));
        }
        Optional<SessionListing.Listing> listing = sessions.listing().one(id);
        return page(error == null ? 200 : 409, pages.confirm(viewer, id, listing.orElse(null), action, error));
    }

    private Response readOnly(ConsolePages.Viewer viewer) {
        return page(403, pages.message(viewer, "Read-only", "This console has no token: it changes no session."));
    }

    private static Action action(String name) {
        return Action.named(name).orElseThrow(() -> new IllegalArgumentException("There is no action '" + name
                + "': the console's are retry, cancel, send and remove."));
    }

    private static Response page(int status, String html) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "text/html; charset=utf-8");
        headers.put("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:;"
                + " form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY"); // frame-ancestors, for browsers that predate it
        headers.put("Referrer-Policy", "no-referrer");
        headers.put("Cache-Control", "no-store");
        return new Response(status, headers, html.getBytes(StandardCharsets.UTF_8));
    }

    /** The first value of {@code name}, or null; blank values count as none. */
    static String one(Map<String, List<String>> parameters, String name) {
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() || values.get(0).isBlank() ? null : values.get(0);
    }

    /** The name-value pairs of a query string or a form, each name with its values in order. */
    static Map<String, List<String>> parameters(String encoded) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return parameters;
        }
        for (String pair : encoded.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        return parameters;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("The request's parameters are not URL-encoded: " + e.getMessage());
        }
    }

    /**
     * This console as a handler of the JDK's HTTP server, to mount at its {@link Builder#path}
     * with {@code HttpServer.createContext}.
     *
     * @return the handler
     */
    public HttpHandler httpHandler() {
        return this::exchange;
    }

    private void exchange(HttpExchange exchange) throws IOException {
        try {
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!values.isEmpty()) {
                    headers.put(name.toLowerCase(Locale.ROOT), values.get(0));
                }
            });
            byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
            Response response = handle(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                    exchange.getRequestURI().getRawQuery(), headers, body));
            response.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(response.status(), head || response.body().length == 0 ? -1
                    : response.body().length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(response.body());
                }
            }
        } finally {
            exchange.close();
        }
    }
}
