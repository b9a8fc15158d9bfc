package dev.weft.examples;

/** Runs every example in turn, each under a heading. */
public final class Examples {

    private Examples() {
    }

    /** With an argument, the SAX parser examples parse that XML file instead of the bundled catalogue. */
    public static void main(String[] args) throws Exception {
        System.out.println("== Figure 3.2: a Coroutine subclass");
        ExampleCoroutine.main(args);
        System.out.println("== Figure 3.3: a Runnable given to new Coroutine(...)");
        ExampleRunnable.main(args);
        System.out.println("== Figure 3.6: SAX parser inversion, call loop");
        CoSAXParser.main(args);
        System.out.println("== Figure 3.7: SAX parser inversion, enhanced for loop");
        CoSAXParserIteration.main(args);
        System.out.println("== Section 5.1: machine control");
        MachineControl.main(args);
        System.out.println("== Same fringe (Mateu 1992, section 9)");
        SameFringe.main(args);
        System.out.println("== Producer/consumer: symmetric coroutines, one-slot buffer");
        SymmetricProducerConsumer.main(args);
        System.out.println("== Producer/consumer: asymmetric generator");
        GeneratorProducerConsumer.main(args);
        System.out.println("== Section 5.2: session persistence, the interaction stored to a file between steps");
        dev.weft.examples.session.Questions.transcript(System.out);
        System.out.println("== Section 5.2 again, as a durable session: no answer within a day, a worker sends a reminder");
        dev.weft.examples.session.Reminders.transcript(System.out);
        System.out.println("== Durable sessions: two forms on the web, each request resuming the visitor's session from SQLite");
        dev.weft.examples.web.WebTour.tour(System.out);
        System.out.println("== The woven engine: a relay of woven coroutines, and a generator moved between the engines");
        dev.weft.examples.woven.WovenEngine.demo(System.out);
    }
}
