package dev.weft.sessions;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@link SessionConsole}'s pages as HTML: the list of sessions with its filters and counts, a
 * session's page, an action's confirmation, the sign-in form and messages. Every text from the
 * store or a request is escaped ({@link Html}); links and forms are made under the console's
 * path. The pages have no script. Immutable; any thread.
 */
final class ConsolePages {

    /** Who is looking: whether the console allows changes, whether they are signed in, and the form field's value. */
    record Viewer(boolean changesAllowed, boolean signedIn, String formToken) {
    }

    /** The choices of the list's time filters, by the value their menus send. */
    private static final Map<String, Duration> SPANS = spans();
    private static final Map<String, String> SPAN_LABELS = Map.of("1h", "1 hour", "1d", "1 day", "7d", "7 days",
            "30d", "30 days");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final int FAILURE_SHOWN = 90;

    private static Map<String, Duration> spans() {
        Map<String, Duration> spans = new LinkedHashMap<>();
        spans.put("1h", Duration.ofHours(1));
        spans.put("1d", Duration.ofDays(1));
        spans.put("7d", Duration.ofDays(7));
        spans.put("30d", Duration.ofDays(30));
        return spans;
    }

    /**
     * The list's filters as its form sends them: {@code status} (any number), {@code wait} (a
     * kind of wait, or {@code none}), {@code due} and {@code age} (one of {@link #SPANS}),
     * {@code build}, {@code point}, {@code failure} (a text), {@code parent}, {@code after} (a
     * page's cursor) and {@code limit}; and {@code refresh}, the seconds after which the page
     * reloads itself (0: never), for an operator who keeps it open.
     */
    record Filters(List<SessionStatus> statuses, String waitKind, String due, String age, String build, String point,
            String failure, String parent, String after, int limit, int refresh) {

        static final int DEFAULT_LIMIT = 50;
        /** The refresh the list's link turns on, and the bounds of any other. */
        static final int REFRESH = 10;
        static final int MIN_REFRESH = 2;
        static final int MAX_REFRESH = 3_600;

        static Filters of(Map<String, List<String>> parameters) {
            List<SessionStatus> statuses = new ArrayList<>();
            for (String name : parameters.getOrDefault("status", List.of())) {
                if (!name.isBlank()) {
                    statuses.add(constant(SessionStatus.class, name, "status"));
                }
            }
            String wait = SessionConsole.one(parameters, "wait");
            if (wait != null && !wait.equals("none")) {
                constant(SessionInfo.WaitKind.class, wait, "wait");
            }
            String due = span(SessionConsole.one(parameters, "due"), "due");
            String age = span(SessionConsole.one(parameters, "age"), "age");
            String limitText = SessionConsole.one(parameters, "limit");
            int limit;
            try {
                limit = limitText == null ? DEFAULT_LIMIT : Integer.parseInt(limitText);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("limit must be a number of sessions, not '" + limitText + "'.");
            }
            return new Filters(List.copyOf(statuses), wait, due, age, SessionConsole.one(parameters, "build"),
                    SessionConsole.one(parameters, "point"), SessionConsole.one(parameters, "failure"),
                    SessionConsole.one(parameters, "parent"), SessionConsole.one(parameters, "after"), limit,
                    refresh(SessionConsole.one(parameters, "refresh")));
        }

        private static int refresh(String seconds) {
            if (seconds == null) {
                return 0;
            }
            try {
                int refresh = Integer.parseInt(seconds);
                if (refresh >= MIN_REFRESH && refresh <= MAX_REFRESH) {
                    return refresh;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException("refresh must be a number of seconds from " + MIN_REFRESH + " to "
                    + MAX_REFRESH + ", not '" + seconds + "'.");
        }

        private static String span(String value, String name) {
            if (value != null && !SPANS.containsKey(value)) {
                throw new IllegalArgumentException(name + " must be one of " + SPANS.keySet() + ", not '" + value + "'.");
            }
            return value;
        }

        private static <E extends Enum<E>> E constant(Class<E> type, String name, String parameter) {
            try {
                return Enum.valueOf(type, name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(parameter + " must be one of "
                        + java.util.Arrays.toString(type.getEnumConstants()) + ", not '" + name + "'.");
            }
        }

        /** The query of these filters, at {@code now}. */
        SessionQuery query(Instant now) {
            SessionQuery query = SessionQuery.all().limit(limit).status(statuses.toArray(SessionStatus[]::new))
                    .build(build).point(point).parent(parent).failureContaining(failure).after(after);
            if ("none".equals(waitKind)) {
                query = query.waitingForNothing();
            } else if (waitKind != null) {
                query = query.waitingFor(SessionInfo.WaitKind.valueOf(waitKind));
            }
            if (due != null) {
                query = query.dueBefore(now.plus(SPANS.get(due)));
            }
            if (age != null) {
                query = query.createdBefore(now.minus(SPANS.get(age)));
            }
            return query;
        }

        /** These filters, refreshed every {@code seconds} (0: never). */
        Filters refreshing(int seconds) {
            return new Filters(statuses, waitKind, due, age, build, point, failure, parent, after, limit, seconds);
        }

        /** These filters as a query string, starting after {@code cursor} (null: the first page). */
        String queryString(String cursor) {
            List<String> pairs = new ArrayList<>();
            statuses.forEach(status -> pairs.add("status=" + status.name()));
            add(pairs, "wait", waitKind);
            add(pairs, "due", due);
            add(pairs, "age", age);
            add(pairs, "build", build);
            add(pairs, "point", point);
            add(pairs, "failure", failure);
            add(pairs, "parent", parent);
            if (limit != DEFAULT_LIMIT) {
                pairs.add("limit=" + limit);
            }
            if (refresh != 0) {
                pairs.add("refresh=" + refresh);
            }
            add(pairs, "after", cursor);
            return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
        }

        private static void add(List<String> pairs, String name, String value) {
            if (value != null) {
                pairs.add(name + "=" + Html.query(value));
            }
        }

        boolean any() {
            return !statuses.isEmpty() || waitKind != null || due != null || age != null || build != null
                    || point != null || failure != null || parent != null;
        }
    }

    private final String path;
    private final String title;
    private final Clock clock;

    ConsolePages(String path, String title, Clock clock) {
        this.path = path;
        this.title = title;
        this.clock = clock;
    }

    Instant now() {
        return clock.instant();
    }

    // ---------------------------------------------------------------- the list

    String list(Viewer viewer, Filters filters, SessionListing.Page<SessionListing.Listing> page,
            Map<String, Long> statusCounts, List<Sessions.BuildSummary> builds, String done, String doneId) {
        Html html = new Html();
        html.raw("<div class=\"layout\"><aside class=\"side\">");
        counts(html, statusCounts);
        builds(html, builds);
        html.raw("</aside><div class=\"content\">");
        if (("removed".equals(done) || "ended".equals(done)) && doneId != null) {
            html.raw("<div class=\"banner ok\" role=\"status\" id=\"done\">Session <code>").text(doneId)
                    .raw("removed".equals(done) ? "</code> was removed.</div>" : "</code> ran its failed step again"
                            + " and finished; the store keeps no finished session.</div>");
        }
        filterForm(html, filters);
        sessionTable(html, page.items());
        html.raw("<nav class=\"pager\"><span class=\"muted\">").text(page.items().size())
                .text(page.items().size() == 1 ? " session" : " sessions").text(filters.after() == null
                        ? " on the first page" : " on this page").raw("</span>");
        if (filters.after() != null) {
            html.raw("<a class=\"button\" href=\"").text(path + "/" + filters.queryString(null))
                    .raw("\">First page</a>");
        }
        if (page.next() != null) {
            html.raw("<a class=\"button\" id=\"next-page\" href=\"").text(path + "/" + filters.queryString(page.next()))
                    .raw("\">Next page &rarr;</a>");
        }
        Filters toggled = filters.refreshing(filters.refresh() == 0 ? Filters.REFRESH : 0);
        html.raw("<a class=\"button\" id=\"refresh\" href=\"").text(path + "/" + toggled.queryString(filters.after()))
                .raw("\">").text(filters.refresh() == 0 ? "Refresh every " + Filters.REFRESH + " s"
                        : "Stop refreshing (every " + filters.refresh() + " s)").raw("</a>");
        html.raw("</nav></div></div>");
        return layout(viewer, "Sessions", html.toString(), filters.refresh());
    }

    private void counts(Html html, Map<String, Long> statusCounts) {
        long total = statusCounts.values().stream().mapToLong(Long::longValue).sum();
        html.raw("<section class=\"card\"><h2>Status</h2><ul class=\"counts\">");
        html.raw("<li><a href=\"").text(path + "/").raw("\"><span>All sessions</span><span class=\"n\">")
                .text(total).raw("</span></a></li>");
        for (SessionStatus status : SessionStatus.values()) {
            html.raw("<li><a href=\"").text(path + "/?status=" + status.name()).raw("\">");
            pill(html, status.name());
            html.raw("<span class=\"n\" id=\"count-").text(status.name().toLowerCase(Locale.ROOT)).raw("\">")
                    .text(statusCounts.getOrDefault(status.name(), 0L)).raw("</span></a></li>");
        }
        statusCounts.forEach((name, count) -> {
            if (java.util.Arrays.stream(SessionStatus.values()).noneMatch(status -> status.name().equals(name))) {
                html.raw("<li><span><span class=\"pill refused\">").text(name).raw("</span></span><span class=\"n\">")
                        .text(count).raw("</span></li>");
            }
        });
        html.raw("</ul></section>");
    }

    private void builds(Html html, List<Sessions.BuildSummary> builds) {
        html.raw("<section class=\"card\"><h2>Builds</h2><ul class=\"builds\">");
        if (builds.isEmpty()) {
            html.raw("<li class=\"muted\">No sessions are stored.</li>");
        }
        for (Sessions.BuildSummary build : builds) {
            html.raw("<li>");
            if (build.build() == null) {
                html.raw("<span class=\"muted\">ended (no build)</span>");
            } else {
                html.raw("<a href=\"").text(path + "/?build=" + Html.query(build.build())).raw("\" title=\"")
                        .text(build.build()).raw("\"><code>").text(shortBuild(build.build())).raw("</code></a>");
            }
            html.raw("<span class=\"n\">").text(build.sessions()).raw("</span>");
            if (build.build() != null && build.refusal() == null) {
                html.raw("<div class=\"verdict ok\">this node takes them</div>");
            } else if (build.build() != null) {
                html.raw("<div class=\"verdict bad\">this node refuses them: ").text(build.refusal()).raw("</div>");
            }
            html.raw("</li>");
        }
        html.raw("</ul></section>");
    }

    private void filterForm(Html html, Filters filters) {
        html.raw("<form class=\"filters card\" method=\"get\" action=\"").text(path + "/").raw("\">");
        html.raw("<label>Status<select name=\"status\"><option value=\"\">Any</option>");
        for (SessionStatus status : SessionStatus.values()) {
            option(html, status.name(), label(status.name()), filters.statuses().size() == 1
                    && filters.statuses().get(0) == status);
        }
        html.raw("</select></label><label>Waits for<select name=\"wait\"><option value=\"\">Anything</option>");
        for (SessionInfo.WaitKind kind : SessionInfo.WaitKind.values()) {
            option(html, kind.name(), label(kind.name()), kind.name().equals(filters.waitKind()));
        }
        option(html, "none", "Nothing (a plain input)", "none".equals(filters.waitKind()));
        html.raw("</select></label><label>Due within<select name=\"due\"><option value=\"\">Any time</option>");
        SPANS.keySet().forEach(span -> option(html, span, SPAN_LABELS.get(span), span.equals(filters.due())));
        html.raw("</select></label><label>Older than<select name=\"age\"><option value=\"\">Any age</option>");
        SPANS.keySet().forEach(span -> option(html, span, SPAN_LABELS.get(span), span.equals(filters.age())));
        html.raw("</select></label>");
        textField(html, "build", "Build", filters.build());
        textField(html, "point", "Point", filters.point());
        textField(html, "failure", "Failure contains", filters.failure());
        textField(html, "parent", "Parent", filters.parent());
        if (filters.refresh() != 0) {
            html.raw("<input type=\"hidden\" name=\"refresh\" value=\"").text(filters.refresh()).raw("\">");
        }
        html.raw("<div class=\"form-buttons\"><button type=\"submit\" class=\"primary\">Filter</button>");
        if (filters.any()) {
            html.raw("<a class=\"button\" href=\"").text(path + "/").raw("\">Clear</a>");
        }
        html.raw("</div></form>");
    }

    private static void option(Html html, String value, String label, boolean selected) {
        html.raw("<option value=\"").text(value).raw(selected ? "\" selected>" : "\">").text(label).raw("</option>");
    }

    private static void textField(Html html, String name, String label, String value) {
        html.raw("<label>").text(label).raw("<input type=\"text\" name=\"").text(name).raw("\" value=\"")
                .text(value).raw("\"></label>");
    }

    private void sessionTable(Html html, List<SessionListing.Listing> listings) {
        html.raw("<div class=\"card table-card\"><table class=\"sessions\"><thead><tr><th>Session</th><th>Status</th>"
                + "<th class=\"num\">Step</th><th>Waits for</th><th>Point</th><th>Build</th><th>Updated</th>"
                + "<th>Started</th><th>Failure</th></tr></thead><tbody>");
        if (listings.isEmpty()) {
            html.raw("<tr><td colspan=\"9\" class=\"empty\">No session passes these filters.</td></tr>");
        }
        for (SessionListing.Listing listing : listings) {
            SessionInfo info = listing.info();
            html.raw("<tr><td class=\"id\"><a href=\"").text(sessionLink(listing.id())).raw("\"><code>")
                    .text(listing.id()).raw("</code></a></td>");
            if (info == null) {
                html.raw("<td>");
                pill(html, "REFUSED");
                html.raw("</td><td colspan=\"7\" class=\"refusal\">").text(listing.refusal()).raw("</td></tr>");
                continue;
            }
            html.raw("<td>");
            pill(html, info.status().name());
            html.raw("</td><td class=\"num\">").text(info.version()).raw("</td><td>");
            waiting(html, info.waiting());
            html.raw("</td><td>").text(info.point() == null ? "" : info.point()).raw("</td><td>");
            if (info.build() != null) {
                html.raw("<code title=\"").text(info.build()).raw("\">").text(shortBuild(info.build())).raw("</code>");
                if (listing.refusal() != null) {
                    html.raw(" <span class=\"pill refused\" title=\"").text(listing.refusal())
                            .raw("\">not here</span>");
                }
            }
            html.raw("</td><td>");
            time(html, info.updated());
            html.raw("</td><td>");
            time(html, info.created());
            html.raw("</td><td class=\"failure\">").text(info.failure() == null ? "" : firstLine(info.failure()))
                    .raw("</td></tr>");
        }
        html.raw("</tbody></table></div>");
    }

    // ---------------------------------------------------------------- one session

    String session(Viewer viewer, SessionListing.Listing listing, SessionStack stack, Object output,
            List<SessionHistoryEntry> history, String done) {
        Html html = new Html();
        SessionInfo info = listing.info();
        html.raw("<div class=\"crumbs\"><a href=\"").text(path + "/").raw("\">Sessions</a> / <code>")
                .text(listing.id()).raw("</code></div><div class=\"title-row\"><h1><code>").text(listing.id())
                .raw("</code></h1>");
        pill(html, info == null ? "REFUSED" : info.status().name());
        actions(html, viewer, listing);
        html.raw("</div>");
        doneBanner(html, done);
        if (info == null) {
            html.raw("<section class=\"card\"><h2>Refused</h2><p class=\"refusal\" id=\"refusal\">")
                    .text("This node does not trust the stored row, so nothing of it is shown: " + listing.refusal())
                    .raw("</p></section>");
            return layout(viewer, listing.id(), html.toString());
        }
        summary(html, info, listing.refusal());
        stack(html, stack, info.status() == SessionStatus.FAILED);
        if (info.failure() != null) {
            html.raw("<section class=\"card\"><h2>Failure</h2><pre class=\"failure-trace\" id=\"failure\">")
                    .text(info.failure()).raw("</pre></section>");
        }
        html.raw("<section class=\"card\"><h2>Last output</h2><p><code id=\"output\">").text(ValueText.of(output))
                .raw("</code></p></section>");
        history(html, history);
        return layout(viewer, listing.id(), html.toString());
    }

    private void actions(Html html, Viewer viewer, SessionListing.Listing listing) {
        html.raw("<div class=\"actions\">");
        if (!viewer.changesAllowed()) {
            html.raw("<span class=\"muted\">Read-only console</span>");
        } else if (!viewer.signedIn()) {
            html.raw("<a class=\"button\" href=\"").text(path + "/sign-in").raw("\">Sign in to act</a>");
        } else {
            SessionStatus status = listing.info() == null ? null : listing.info().status();
            if (status == SessionStatus.FAILED) {
                actionLink(html, listing.id(), SessionConsole.Action.RETRY, "primary");
            }
            if (status == SessionStatus.SUSPENDED) {
                actionLink(html, listing.id(), SessionConsole.Action.SEND, "");
            }
            if (status == SessionStatus.SUSPENDED || status == SessionStatus.FAILED) {
                actionLink(html, listing.id(), SessionConsole.Action.CANCEL, "danger");
            }
            actionLink(html, listing.id(), SessionConsole.Action.REMOVE, "danger");
        }
        html.raw("</div>");
    }

    private void actionLink(Html html, String id, SessionConsole.Action action, String kind) {
        html.raw("<a class=\"button ").text(kind).raw("\" id=\"action-").text(action.name).raw("\" href=\"")
                .text(path + "/confirm?id=" + Html.query(id) + "&action=" + action.name).raw("\">").text(action.label)
                .raw("</a>");
    }

    private static void doneBanner(Html html, String done) {
        String text = done == null ? null : switch (done) {
            case "retried" -> "Its failed step ran again.";
            case "retried-failed" -> "Its failed step ran again, and failed again.";
            case "cancelled" -> "It was cancelled.";
            case "sent" -> "The message is in its inbox.";
            default -> null;
        };
        if (text != null) {
            html.raw("<div class=\"banner ok\" role=\"status\" id=\"done\">").text(text).raw("</div>");
        }
    }

    private void summary(Html html, SessionInfo info, String refusal) {
        html.raw("<div class=\"grid\"><section class=\"card\"><h2>Summary</h2><dl class=\"summary\">");
        term(html, "Status", info.status().name());
        term(html, "Step", String.valueOf(info.version()));
        html.raw("<dt>Started</dt><dd>");
        time(html, info.created());
        html.raw("</dd><dt>Updated</dt><dd>");
        time(html, info.updated());
        html.raw("</dd><dt>Waits for</dt><dd id=\"waiting\">");
        if (info.status() == SessionStatus.SUSPENDED) {
            waiting(html, info.waiting());
        } else {
            html.raw("<span class=\"muted\">nothing: it is ").text(info.status().name().toLowerCase(Locale.ROOT))
                    .raw("</span>");
        }
        html.raw("</dd>");
        term(html, "Point", info.point());
        if (info.parent() != null) {
            html.raw("<dt>Parent</dt><dd><a href=\"").text(sessionLink(info.parent())).raw("\"><code>")
                    .text(info.parent()).raw("</code></a></dd>");
        }
        if (info.deadline() != null) {
            html.raw("<dt>Deadline</dt><dd>");
            time(html, info.deadline());
            html.raw("</dd>");
        }
        html.raw("<dt>Children</dt><dd><a href=\"").text(path + "/?parent=" + Html.query(info.id()))
                .raw("\">sessions it started</a></dd>");
        html.raw("</dl></section><section class=\"card\"><h2>Build</h2><p><code class=\"build\">")
                .text(info.build() == null ? "none: it has ended" : info.build()).raw("</code></p>");
        if (info.status() == SessionStatus.SUSPENDED && refusal == null) {
            html.raw("<p class=\"verdict ok\" id=\"verdict\">This node takes it: its code has every method of its"
                    + " frames, unchanged.</p>");
        } else if (info.status() == SessionStatus.SUSPENDED) {
            html.raw("<p class=\"verdict bad\" id=\"verdict\">This node refuses it: ").text(refusal).raw("</p>");
        }
        html.raw("</section></div>");
    }

    private static void term(Html html, String term, String value) {
        html.raw("<dt>").text(term).raw("</dt><dd>").text(value == null ? "none" : value).raw("</dd>");
    }

    private static void stack(Html html, SessionStack stack, boolean failed) {
        html.raw("<section class=\"card\"><h2>Stack</h2>");
        if (failed && stack.refusal() == null) {
            html.raw("<p class=\"muted\">Where its failed step started: a retry runs it again from here.</p>");
        }
        if (stack.refusal() != null) {
            html.raw("<p class=\"muted\" id=\"stack-refusal\">No frames are shown: ").text(stack.refusal())
                    .raw("</p></section>");
            return;
        }
        html.raw("<ol class=\"frames\">");
        for (SessionStack.Frame frame : stack.frames()) {
            StackTraceElement place = frame.place();
            html.raw("<li class=\"frame\"><div class=\"place\"><span class=\"at\">at</span> <code>")
                    .text(place.getClassName() + "." + place.getMethodName()).raw("(<span class=\"file\">")
                    .text(place.getFileName() == null ? "Unknown Source" : place.getLineNumber() >= 0
                            ? place.getFileName() + ":" + place.getLineNumber() : place.getFileName())
                    .raw("</span>)</code><span class=\"bci\">bci ").text(frame.bci()).raw("</span></div>");
            if (!frame.variables().isEmpty()) {
                html.raw("<table class=\"vars\"><thead><tr><th>Variable</th><th>Type</th><th>Value</th></tr></thead>"
                        + "<tbody>");
                for (SessionStack.Variable variable : frame.variables()) {
                    html.raw("<tr><td class=\"name\">").text(variable.name() != null ? variable.name()
                            : variable.onStack() ? "(operand stack)" : "(slot " + variable.slot() + ")")
                            .raw("</td><td class=\"type\"><code>").text(variable.type() == null ? "?"
                            : simpleType(variable.type())).raw("</code></td><td class=\"value\"><code>")
                            .text(variable.value()).raw("</code></td></tr>");
                }
                html.raw("</tbody></table>");
            }
            html.raw("</li>");
        }
        html.raw("</ol></section>");
    }

    /** {@code type} without its package, as a reader of the source would write it: {@code java.lang.String} as {@code String}. */
    private static String simpleType(String type) {
        int dot = type.lastIndexOf('.');
        return dot < 0 ? type : type.substring(dot + 1).replace('$', '.');
    }

    private static void history(Html html, List<SessionHistoryEntry> history) {
        html.raw("<section class=\"card\"><h2>History</h2>");
        if (history.isEmpty()) {
            html.raw("<p class=\"muted\">No steps are recorded: the nodes keep no history"
                    + " (Sessions.Builder.keepHistory), or it was pruned.</p></section>");
            return;
        }
        html.raw("<table class=\"history\"><thead><tr><th class=\"num\">Step</th><th>Started</th><th>Node</th>"
                + "<th class=\"num\">Duration</th><th>Engine</th><th>Status after</th><th>Waits for next</th>"
                + "<th>Failure</th></tr></thead><tbody>");
        for (SessionHistoryEntry entry : history) {
            html.raw("<tr><td class=\"num\">").text(entry.version()).raw("</td><td>")
                    .text(TIME.format(entry.started())).raw("</td><td>").text(entry.node()).raw("</td><td class=\"num\">")
                    .text(duration(entry.duration())).raw("</td><td>")
                    .text(entry.engine() == null ? "no code ran" : entry.engine().name()).raw("</td><td>");
            pill(html, entry.status() == null ? "REFUSED" : entry.status().name());
            html.raw("</td><td>");
            waitingText(html, entry.waiting());
            html.raw("</td><td class=\"failure\">").text(entry.failure() == null ? "" : firstLine(entry.failure()))
                    .raw("</td></tr>");
        }
        html.raw("</tbody></table></section>");
    }

    private static String duration(Duration duration) {
        long micros = duration.toNanos() / 1_000;
        return micros < 10_000 ? micros + " µs" : String.format(Locale.ROOT, "%.1f ms", micros / 1_000.0);
    }

    // ---------------------------------------------------------------- actions and sign-in

    String confirm(Viewer viewer, String id, SessionListing.Listing listing, SessionConsole.Action action,
            String error) {
        Html html = new Html();
        html.raw("<div class=\"crumbs\"><a href=\"").text(path + "/").raw("\">Sessions</a> / <a href=\"")
                .text(sessionLink(id)).raw("\"><code>").text(id).raw("</code></a></div>");
        html.raw("<section class=\"card confirm\"><h1>").text(action.question + " ").raw("<code>").text(id)
                .raw("</code>?</h1><p>").text(explanation(action)).raw("</p>");
        if (listing == null) {
            html.raw("<div class=\"banner bad\">There is no such session in the store.</div>");
        } else if (listing.info() != null) {
            html.raw("<p class=\"muted\">It is ").text(listing.info().status().name()).text(" at step ")
                    .text(listing.info().version()).raw(".</p>");
        }
        if (error != null) {
            html.raw("<div class=\"banner bad\" role=\"alert\" id=\"error\">").text(error).raw("</div>");
        }
        html.raw("<form method=\"post\" action=\"").text(path + "/action").raw("\">")
                .raw("<input type=\"hidden\" name=\"id\" value=\"").text(id).raw("\">")
                .raw("<input type=\"hidden\" name=\"action\" value=\"").text(action.name).raw("\">")
                .raw("<input type=\"hidden\" name=\"").text(ConsoleAuth.FORM_FIELD).raw("\" value=\"")
                .text(viewer.formToken()).raw("\">");
        if (action == SessionConsole.Action.SEND) {
            html.raw("<label class=\"wide\">Message (a text, put in its inbox as a String)"
                    + "<textarea name=\"message\" rows=\"4\" required></textarea></label>");
        }
        html.raw("<div class=\"form-buttons\"><button type=\"submit\" id=\"confirm\" class=\"")
                .text(action == SessionConsole.Action.RETRY || action == SessionConsole.Action.SEND ? "primary"
                        : "danger").raw("\">").text(action.label).raw("</button><a class=\"button\" href=\"")
                .text(sessionLink(id)).raw("\">Back</a></div></form></section>");
        return layout(viewer, action.label + " " + id, html.toString());
    }

    private static String explanation(SessionConsole.Action action) {
        return switch (action) {
            case RETRY -> "Runs its failed step again now, on the console's node, from the suspension it started from and"
                    + " with the input it had. If it throws again, the node's retry policy applies.";
            case CANCEL -> "Closes its frames in a step of their own, so that its finally blocks run, and stores it as"
                    + " cancelled, its messages deleted. It is never resumed again.";
            case SEND -> "Stores a message in its inbox: a step that waits for a message takes it, once.";
            case REMOVE -> "Deletes its row and its step history from the store, whatever its status. This cannot be"
                    + " undone.";
        };
    }

    String signIn(Viewer viewer, String error) {
        Html html = new Html();
        html.raw("<section class=\"card confirm\"><h1>Sign in</h1>");
        if (!viewer.changesAllowed()) {
            html.raw("<p>This console has no token: it is read-only, and nobody signs in.</p></section>");
            return layout(viewer, "Sign in", html.toString());
        }
        html.raw("<p>The console's token allows its actions: retry, cancel, send a message, remove.</p>");
        if (error != null) {
            html.raw("<div class=\"banner bad\" role=\"alert\" id=\"error\">").text(error).raw("</div>");
        }
        html.raw("<form method=\"post\" action=\"").text(path + "/sign-in").raw("\"><label class=\"wide\">Token"
                + "<input type=\"password\" name=\"token\" autocomplete=\"current-password\" required></label>"
                + "<div class=\"form-buttons\"><button type=\"submit\" class=\"primary\" id=\"sign-in\">Sign in"
                + "</button></div></form></section>");
        return layout(viewer, "Sign in", html.toString());
    }

    String message(Viewer viewer, String heading, String text) {
        Html html = new Html();
        html.raw("<section class=\"card confirm\"><h1>").text(heading).raw("</h1><p id=\"message\">").text(text)
                .raw("</p><p><a class=\"button\" href=\"").text(path + "/").raw("\">All sessions</a></p></section>");
        return layout(viewer, heading, html.toString());
    }

    // ---------------------------------------------------------------- parts

    private String layout(Viewer viewer, String heading, String body) {
        return layout(viewer, heading, body, 0);
    }

    /** A page, which reloads itself after {@code refresh} seconds unless 0. */
    private String layout(Viewer viewer, String heading, String body, int refresh) {
        Html html = new Html();
        html.raw("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\""
                + " content=\"width=device-width, initial-scale=1\">");
        if (refresh > 0) {
            html.raw("<meta http-equiv=\"refresh\" content=\"").text(refresh).raw("\">");
        }
        html.raw("<title>").text(heading + " · " + title)
                .raw("</title><link rel=\"stylesheet\" href=\"").text(path + "/console.css").raw("\"></head><body>")
                .raw("<header class=\"top\"><a class=\"brand\" href=\"").text(path + "/")
                .raw("\"><span class=\"mark\" aria-hidden=\"true\"></span>").text(title).raw("</a><nav>");
        if (!viewer.changesAllowed()) {
            html.raw("<span class=\"mode\">Read-only</span>");
        } else if (viewer.signedIn()) {
            html.raw("<span class=\"mode on\">Signed in</span><form method=\"post\" action=\"").text(path + "/sign-out")
                    .raw("\"><button type=\"submit\" class=\"link\">Sign out</button></form>");
        } else {
            html.raw("<a href=\"").text(path + "/sign-in").raw("\">Sign in</a>");
        }
        html.raw("<span class=\"clock\" title=\"the console's clock\">").text(TIME.format(now()))
                .raw("</span></nav></header><main>").raw(body).raw("</main></body></html>");
        return html.toString();
    }

    private String sessionLink(String id) {
        return path + "/session?id=" + Html.query(id);
    }

    private static void pill(Html html, String status) {
        html.raw("<span class=\"pill ").text(status.toLowerCase(Locale.ROOT).replace('_', '-')).raw("\">")
                .text(label(status)).raw("</span>");
    }

    /** {@code SUSPENDED} as {@code Suspended}, {@code RETRY_TIMEOUT} as {@code Retry timeout}. */
    private static String label(String constant) {
        String words = constant.toLowerCase(Locale.ROOT).replace('_', ' ');
        return words.isEmpty() ? words : Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    private void waiting(Html html, SessionInfo.Waiting waiting) {
        if (waiting == null) {
            html.raw("<span class=\"muted\">an input</span>");
            return;
        }
        html.raw("<span class=\"wait\">").text(label(waiting.kind().name())).raw("</span>");
        if (waiting.until() != null) {
            html.raw(" ");
            time(html, waiting.until());
        }
    }

    private static void waitingText(Html html, SessionInfo.Waiting waiting) {
        if (waiting == null) {
            html.raw("<span class=\"muted\">an input, or nothing</span>");
            return;
        }
        html.text(label(waiting.kind().name())).text(waiting.until() == null ? "" : " until "
                + TIME.format(waiting.until()));
    }

    /** {@code time} as how long ago or ahead, the instant itself in its title. */
    private void time(Html html, Instant time) {
        html.raw("<time datetime=\"").text(time).raw("\" title=\"").text(TIME.format(time)).raw("\">")
                .text(relative(time)).raw("</time>");
    }

    private String relative(Instant time) {
        long seconds = ChronoUnit.SECONDS.between(time, now());
        long amount = Math.abs(seconds);
        String span = amount < 60 ? amount + " s" : amount < 3_600 ? amount / 60 + " min"
                : amount < 172_800 ? amount / 3_600 + " h" : amount / 86_400 + " days";
        return seconds >= 0 ? span + " ago" : "in " + span;
    }

    private static String shortBuild(String build) {
        return build.length() <= 12 ? build : build.substring(0, 12);
    }

    private static String firstLine(String text) {
        String line = text.lines().findFirst().orElse("");
        return line.length() <= FAILURE_SHOWN ? line : line.substring(0, FAILURE_SHOWN) + "…";
    }
}
