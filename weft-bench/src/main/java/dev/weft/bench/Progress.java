package dev.weft.bench;

/** One line per measurement on the console: how far the run is and what it just measured. */
final class Progress {

    private final long start = System.nanoTime();
    private final int planned;
    private int done;

    Progress(int planned) {
        this.planned = planned;
    }

    void report(String label, Outcome outcome) {
        report(label, outcome.ok() ? Format.number(outcome.value()) + " " + outcome.unit() : "FAILED: " + outcome.failure());
    }

    /** One measurement done, with what it found in words. */
    void report(String label, String result) {
        done++;
        long s = (System.nanoTime() - start) / 1_000_000_000;
        System.out.printf("[%3d/%d %2d:%02d] %s: %s%n", done, planned, s / 60, s % 60, label, result);
    }

    void note(String message) {
        long s = (System.nanoTime() - start) / 1_000_000_000;
        System.out.printf("[      %2d:%02d] %s%n", s / 60, s % 60, message);
    }

    long elapsedSeconds() {
        return (System.nanoTime() - start) / 1_000_000_000;
    }
}
