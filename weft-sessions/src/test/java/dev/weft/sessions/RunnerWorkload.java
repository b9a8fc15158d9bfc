package dev.weft.sessions;

import dev.weft.AsymRunnable;
import dev.weft.sessions.flows.Attempts;
import dev.weft.sessions.flows.Collector;
import dev.weft.sessions.flows.Fanout;
import dev.weft.sessions.flows.Recurring;
import dev.weft.sessions.flows.Relay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What {@link RunnerKillTest} runs, and what each session must end with: waves of sessions of
 * five kinds, each of whose steps writes ledger rows in its transaction, and the messages the
 * driver sends them. Per wave, {@code scale} times:
 *
 * <ul>
 * <li>4 timers ({@link Recurring}): {@code rounds} rounds, each a sub-second sleep (50 to 350
 *     ms) that a worker ends; ledger {@code 1:start, 2:timer, ..., R:timer};
 * <li>1 mailbox ({@link Collector}) that takes 4 messages from the driver and 3 from each of 2
 *     relays ({@link Relay}: sessions that send it messages from their own steps); each message
 *     once, each sender's in the order sent;
 * <li>1 parent ({@link Fanout}) of 3 children that sleep, then finish; each child's outcome once;
 * <li>2 retried sessions ({@link Attempts}) whose second step fails 1, 2 or 3 times, with the
 *     retry policy of {@link #ATTEMPTS} attempts: each succeeds at its attempt failures + 1.
 * </ul>
 *
 * A wave starts once the ledger holds three quarters of the rows of the waves before it, so that
 * starts and sends go on while nodes (and the server) are killed.
 */
final class RunnerWorkload {

    /** The most failures of a retried session's step. */
    static final int MOST_FAILURES = 3;
    /** The attempts of the nodes' retry policy: more than {@link #MOST_FAILURES}, so each retried session succeeds. */
    static final int ATTEMPTS = MOST_FAILURES + 2;

    private static final int TIMERS = 4;
    private static final int DRIVER_MESSAGES = 4;
    private static final int RELAYS = 2;
    private static final int RELAYED = 3;
    private static final int CHILDREN = 3;
    private static final int RETRIED = 2;

    /** How a session's ledger is compared with the one expected. */
    enum Order {
        /** Row for row. */
        EXACT,
        /** Each row once, and each sender's messages in the order sent (a mailbox). */
        BY_SENDER,
        /** The children started in order, then their outcomes, each once, in any order (a parent). */
        STARTS_THEN_ANY
    }

    /**
     * A session and what it must end with: FINISHED, its ledger ({@code step:text} rows, compared
     * as {@code order} says) and its output ({@code output}, or for a parent, its outputs in any
     * order). {@code body} is null for a child, which its parent starts.
     */
    record Planned(String id, AsymRunnable<Object, String> body, List<String> ledger, Order order, String output) {
    }

    /** A message the driver sends: its id (the driver's marker), the session, the message. */
    record Send(String id, String session, String message) {
    }

    /** A wave: its sessions (the driver starts those with a body), the driver's sends, the ledger rows it awaits. */
    record Wave(List<Planned> sessions, List<Send> sends, long startsAtRows) {
    }

    private final List<Wave> waves = new ArrayList<>();
    private final Map<String, Planned> planned = new HashMap<>();
    private long rows;

    RunnerWorkload(int waves, int scale, int rounds) {
        Random random = new Random(32);
        for (int w = 0; w < waves; w++) {
            List<Planned> sessions = new ArrayList<>();
            List<Send> sends = new ArrayList<>();
            for (int i = 0; i < scale; i++) {
                String prefix = "w" + w + "-" + i + "-";
                mailbox(prefix, sessions, sends);
                for (int t = 0; t < TIMERS; t++) {
                    sessions.add(timer(prefix + "timer-" + t, rounds, Duration.ofMillis(50 + random.nextInt(300))));
                }
                parent(prefix + "parent", sessions);
                for (int r = 0; r < RETRIED; r++) {
                    int failures = 1 + random.nextInt(MOST_FAILURES);
                    sessions.add(retried(prefix + "retried-" + r, failures));
                }
            }
            long before = rows;
            for (Planned session : sessions) {
                planned.put(session.id(), session);
                rows += session.ledger().size();
            }
            this.waves.add(new Wave(List.copyOf(sessions), List.copyOf(sends), before * 3 / 4));
        }
    }

    List<Wave> waves() {
        return waves;
    }

    /** Every ledger row the sessions write, once each. */
    long rows() {
        return rows;
    }

    /** Every session, by id: those the driver starts and their children. */
    Map<String, Planned> sessions() {
        return planned;
    }

    private static Planned timer(String id, int rounds, Duration every) {
        List<String> ledger = new ArrayList<>(List.of("1:start"));
        for (int round = 2; round <= rounds; round++) {
            ledger.add(round + ":timer");
        }
        return new Planned(id, new Recurring(rounds, every), ledger, Order.EXACT, "done after " + rounds + " rounds");
    }

    /** A mailbox, its relays (started after it), and the driver's messages to it. */
    private static void mailbox(String prefix, List<Planned> sessions, List<Send> sends) {
        String mailbox = prefix + "mailbox";
        List<String> messages = new ArrayList<>();
        for (int k = 1; k <= DRIVER_MESSAGES; k++) {
            String message = mailbox + "<driver#" + k;
            sends.add(new Send(message, mailbox, message));
            messages.add(message);
        }
        List<Planned> relays = new ArrayList<>();
        for (int r = 0; r < RELAYS; r++) {
            String relay = prefix + "relay-" + r;
            List<String> ledger = new ArrayList<>(List.of("1:start"));
            for (int k = 1; k <= RELAYED; k++) {
                ledger.add((k + 1) + ":sent " + relay + "#" + k);
                messages.add(relay + "#" + k);
            }
            relays.add(new Planned(relay, new Relay(mailbox, RELAYED, Duration.ofMillis(100)), ledger, Order.EXACT,
                    "relayed " + RELAYED));
        }
        List<String> ledger = new ArrayList<>();
        for (int k = 0; k < messages.size(); k++) {
            ledger.add((k + 2) + ":message " + messages.get(k)); // in the order sent by the driver, then each relay
        }
        sessions.add(new Planned(mailbox, new Collector(messages.size()), ledger, Order.BY_SENDER, "collected "
                + messages.size()));
        sessions.addAll(relays);
    }

    /** A parent and its children, which it starts in its first step: ids {@code PARENT-I}, parts {@code sleep:I}. */
    private static void parent(String id, List<Planned> sessions) {
        List<String> parts = new ArrayList<>();
        List<String> ledger = new ArrayList<>();
        List<String> outputs = new ArrayList<>();
        List<Planned> children = new ArrayList<>();
        for (int c = 0; c < CHILDREN; c++) {
            parts.add("sleep:" + c);
            ledger.add("1:started " + id + "-" + c);
            outputs.add("done " + c);
            children.add(new Planned(id + "-" + c, null, List.of("2:finally"), Order.EXACT, "done " + c));
        }
        for (int c = 0; c < CHILDREN; c++) {
            ledger.add((c + 2) + ":outcome " + id + "-" + c + " FINISHED done " + c); // in any order
        }
        sessions.add(new Planned(id, new Fanout(parts, false), ledger, Order.STARTS_THEN_ANY, "all " + outputs));
        sessions.addAll(children);
    }

    private static Planned retried(String id, int failures) {
        String succeeded = "succeeded at attempt " + (failures + 1);
        return new Planned(id, new Attempts(failures, Duration.ofMillis(20)), List.of("1:start at attempt 1", "2:"
                + succeeded), Order.EXACT, succeeded);
    }

    // ---------------------------------------------------------------- checks

    /**
     * What is wrong with session {@code id}'s end, each a sentence naming it: its status
     * ({@code info} null if it is not stored), its output, and its ledger ({@code step:text}, in
     * commit order).
     */
    List<String> problems(Planned session, SessionInfo info, Object output, List<String> ledger) {
        List<String> problems = new ArrayList<>();
        String id = session.id();
        if (info == null) {
            problems.add("session " + id + " is not stored; expected FINISHED");
            return problems;
        }
        if (info.status() != SessionStatus.FINISHED) {
            problems.add("session " + id + " is " + info.status() + " at version " + info.version()
                    + ", waiting " + info.waiting() + "; expected FINISHED" + (info.failure() == null ? ""
                            : ", failure: " + info.failure().lines().findFirst().orElse("")));
        }
        if (!sameOutput(session, output)) {
            problems.add("session " + id + " returned " + output + "; expected " + session.output());
        }
        String ledgerProblem = ledgerProblem(session, ledger);
        if (ledgerProblem != null) {
            problems.add("session " + id + ": " + ledgerProblem + "; its ledger: " + ledger + "; expected "
                    + session.ledger());
        }
        return problems;
    }

    private static boolean sameOutput(Planned session, Object output) {
        if (session.order() != Order.STARTS_THEN_ANY) {
            return session.output().equals(output);
        }
        return output instanceof String text && text.startsWith("all [") && sorted(text).equals(sorted(session
                .output()));
    }

    /** The items of {@code "all [a, b]"}, sorted. */
    private static List<String> sorted(String all) {
        List<String> items = new ArrayList<>(List.of(all.substring(5, all.length() - 1).split(", ")));
        Collections.sort(items);
        return items;
    }

    /** Why {@code ledger} is not what {@code session} must have written, or null if it is. */
    private static String ledgerProblem(Planned session, List<String> ledger) {
        List<String> expected = session.ledger();
        switch (session.order()) {
            case EXACT -> {
                return expected.equals(ledger) ? null : "rows lost, repeated or out of order";
            }
            case STARTS_THEN_ANY -> {
                int starts = expected.size() / 2;
                if (ledger.size() != expected.size()
                        || !ledger.subList(0, starts).equals(expected.subList(0, starts))) {
                    return "children not started each once, in order, before their outcomes";
                }
                return oneTextAStep(expected.subList(starts, expected.size()), ledger.subList(starts, ledger.size()),
                        2) ? null : "outcomes lost or taken twice";
            }
            case BY_SENDER -> {
                return mailboxProblem(expected, ledger);
            }
            default -> throw new AssertionError(session.order());
        }
    }

    /** Steps 2, 3, ... each one message; each message once; each sender's in the order sent. */
    private static String mailboxProblem(List<String> expected, List<String> ledger) {
        if (!oneTextAStep(expected, ledger, 2)) {
            return "messages lost, taken twice, or not one a step";
        }
        List<String> taken = texts(ledger);
        List<String> sent = texts(expected);
        Map<String, List<String>> bySender = new HashMap<>();
        for (String message : taken) {
            bySender.computeIfAbsent(sender(message), s -> new ArrayList<>()).add(message);
        }
        for (List<String> ofOne : bySender.values()) {
            List<String> inOrderSent = sent.stream().filter(ofOne::contains).toList();
            if (!inOrderSent.equals(ofOne)) {
                return "a sender's messages taken as " + ofOne + ", sent as " + inOrderSent;
            }
        }
        return null;
    }

    /**
     * Whether {@code got} holds the texts of {@code expected} ({@code step:text} rows), each once,
     * in any order, one a step, in steps {@code first}, {@code first + 1}, ...
     */
    private static boolean oneTextAStep(List<String> expected, List<String> got, int first) {
        if (got.size() != expected.size()) {
            return false;
        }
        for (int k = 0; k < got.size(); k++) {
            if (!got.get(k).startsWith((first + k) + ":")) {
                return false;
            }
        }
        List<String> a = new ArrayList<>(texts(expected));
        List<String> b = new ArrayList<>(texts(got));
        Collections.sort(a);
        Collections.sort(b);
        return a.equals(b);
    }

    /** The texts of {@code step:text} rows. */
    private static List<String> texts(List<String> rows) {
        return rows.stream().map(row -> row.substring(row.indexOf(':') + 1)).toList();
    }

    /** A message's sender: what comes before its {@code #}. */
    private static String sender(String message) {
        return message.substring(0, message.lastIndexOf('#'));
    }
}
