package dev.weft.examples;

/** Runs every example in turn, each under a heading. */
public final class Examples {

    private Examples() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("== Figure 3.2: a Coroutine subclass");
        ExampleCoroutine.main(args);
    }
}
