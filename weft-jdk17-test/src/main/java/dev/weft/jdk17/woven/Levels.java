package dev.weft.jdk17.woven;

import dev.weft.AsymCoroutine;

/**
 * Passes out a line from four frames below its body, then one from each frame on the way back
 * up, then the sum of the levels: a stack deep enough that each resume calls the innermost saved
 * frame alone, through the resumer the engine made for its method.
 */
public final class Levels extends AsymCoroutine<Void, String> {

    private static final int DEPTH = 4;

    @Override
    protected String run(Void ignored) {
        return "done after " + descend(DEPTH);
    }

    private int descend(int level) {
        if (level == 0) {
            ret("bottom");
            return 0;
        }
        int below = descend(level - 1);
        ret("up " + level + " over " + below);
        return below + level;
    }
}
