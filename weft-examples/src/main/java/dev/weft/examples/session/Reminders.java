package dev.weft.examples.session;

import dev.weft.sessions.SessionStep;
import dev.weft.sessions.SessionStore;
import dev.weft.sessions.Sessions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * {@link RemindedInteraction} played as a transcript, for the examples command: a session on a
 * SQLite file in a temporary directory, a node with a worker, and a clock the transcript moves
 * on, so that "a day passes" takes no time. Each answer is a versioned {@code resume}; each
 * reminder is a step the worker runs when the day has passed, read back from the store.
 */
public final class Reminders {

    private Reminders() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        transcript(System.out);
    }

    /**
     * Plays the transcript to {@code out}, on a thread of its own: the steps it runs on its
     * thread leave that thread's in-memory coroutines behind (dropped once stored, not closed),
     * which should not be the caller's.
     */
    public static void transcript(PrintStream out) throws IOException, InterruptedException {
        ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "reminders"));
        try {
            thread.submit(() -> {
                play(out);
                return null;
            }).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException("the reminders transcript failed: " + e.getCause(), e.getCause());
        } finally {
            thread.shutdown();
        }
    }

    private static void play(PrintStream out) throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("weft-reminders");
        TransportedClock clock = new TransportedClock(Instant.parse("2026-03-02T09:00:00Z"));
        try (SessionStore store = SessionStore.sqlite(directory.resolve("sessions.db"));
                Sessions node = Sessions.builder(store).clock(clock).workers(1).pollEvery(Duration.ofMillis(20))
                        .keepFinished(true).build()) {
            out.println(clock.instant() + "  start");
            SessionStep<String> step = node.start(new RemindedInteraction(), null);
            out.println("  " + step.output());
            step = answer(node, step, "John Doe", clock, out);
            step = silence(node, step, clock, out);
            step = silence(node, step, clock, out);
            step = answer(node, step, "Genovia", clock, out);
            step = answer(node, step, "twenty-eight", clock, out);
            step = silence(node, step, clock, out);
            step = answer(node, step, "28", clock, out);
            answer(node, step, "nospam@nospam.at", clock, out);
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    private static SessionStep<String> answer(Sessions node, SessionStep<String> step, String answer,
            TransportedClock clock, PrintStream out) {
        clock.advance(Duration.ofHours(2));
        out.println(clock.instant() + "  answer \"" + answer + "\"");
        SessionStep<String> next = node.resume(step.id(), step.version(), answer);
        out.println("  " + next.output());
        return next;
    }

    /**
     * Waits until a worker has stepped session {@code id} on from {@code version} (its reminder),
     * for at most {@code patience}: the output the worker's step stored, or empty if none came.
     */
    public static Optional<String> awaitWorkerStep(Sessions node, String id, long version, Duration patience)
            throws InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (node.status(id).orElseThrow().version() == version) {
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            Thread.sleep(5);
        }
        return node.lastOutput(id).map(String.class::cast);
    }

    /** A day passes with no answer: the worker's step sends the reminder, which the store then shows. */
    private static SessionStep<String> silence(Sessions node, SessionStep<String> step, TransportedClock clock,
            PrintStream out) throws InterruptedException {
        clock.advance(RemindedInteraction.PATIENCE);
        out.println(clock.instant() + "  (a day has passed with no answer)");
        String reminder = awaitWorkerStep(node, step.id(), step.version(), Duration.ofMinutes(1))
                .orElseThrow(() -> new IllegalStateException("no worker sent the reminder for session " + step.id()));
        out.println("  " + reminder);
        return new SessionStep<>(step.id(), step.version() + 1, false, reminder);
    }
}
