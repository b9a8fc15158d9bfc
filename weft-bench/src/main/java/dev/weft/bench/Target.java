package dev.weft.bench;

/** A performance goal of the issue, with what was measured against it. Goals, not assertions. */
record Target(String goal, String measured, Status status) {

    enum Status { MET, MISSED, NOT_MEASURED }

    static Target of(String goal, String measured, boolean met) {
        return new Target(goal, measured, met ? Status.MET : Status.MISSED);
    }

    static Target notMeasured(String goal, String why) {
        return new Target(goal, why, Status.NOT_MEASURED);
    }

    String statusText() {
        return switch (status) {
            case MET -> "MET";
            case MISSED -> "MISSED";
            case NOT_MEASURED -> "NOT MEASURED";
        };
    }
}
