package dev.weft.bench;

import jdk.internal.vm.ContinuationScope;

/** The scope of the bare {@code jdk.internal.vm.Continuation}s that the baselines run. */
final class RawContinuations {

    static final ContinuationScope SCOPE = new ContinuationScope("raw-baseline");

    private RawContinuations() {
    }
}
