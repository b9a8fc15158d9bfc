package dev.weft.bench;

/**
 * A performance goal of the issue, with what was measured against it. Goals, not assertions.
 *
 * @param ifMissed what the report says when the goal is missed: by how much, and what the profile
 *        of the missed operation shows; empty if nothing is said
 */
record Target(String goal, String measured, Status status, String ifMissed) {

    enum Status { MET, MISSED, NOT_MEASURED }

    static Target of(String goal, String measured, boolean met) {
        return new Target(goal, measured, met ? Status.MET : Status.MISSED, "");
    }

    static Target notMeasured(String goal, String why) {
        return new Target(goal, why, Status.NOT_MEASURED, "");
    }

    /** This target, saying {@code explanation} if it is missed. */
    Target explainedIfMissed(String explanation) {
        return new Target(goal, measured, status, explanation);
    }

    String statusText() {
        return switch (status) {
            case MET -> "MET";
            case MISSED -> "MISSED";
            case NOT_MEASURED -> "NOT MEASURED";
        };
    }
}
