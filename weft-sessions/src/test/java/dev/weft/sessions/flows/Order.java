package dev.weft.sessions.flows;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * An order taken in two frames, whose locals hold a value of each kind an operator is shown:
 * text with quotes, the primitives, an enum constant, a date, a small list, an object of the
 * application's own and a large array; and the coroutine itself, in a local and in a field of the
 * body (as thesis 5.2's interaction keeps it). Suspended in {@link #confirm}, called from {@link #run}.
 */
public final class Order implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    /** The coroutine this body runs in: written as a reference to the coroutine itself. */
    private AsymCoroutine<? extends String, ? super String> coroutine;

    /** Where an order is. */
    public enum Stage { NEW, PAID, SHIPPED }

    /** The application's own object: shown by its class and number of fields. */
    public static final class Customer implements Serializable {
        private static final long serialVersionUID = 1L;
        final String name;
        final int visits;

        public Customer(String name, int visits) {
            this.name = name;
            this.visits = visits;
        }
    }

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String item) {
        this.coroutine = self;
        String customer = "Ada \"Lovelace\"";
        int quantity = 3;
        long cents = 4_250L;
        double weight = 1.5;
        boolean gift = true;
        char size = 'M';
        Stage stage = Stage.PAID;
        LocalDate due = LocalDate.of(2026, 12, 24);
        List<String> lines = new ArrayList<>(List.of(item, "ribbon"));
        Customer who = new Customer("Ada", 7);
        int[] boxes = new int[100];
        String answer = confirm(self, item, quantity); // the caller's frame: suspended here
        return customer + quantity + cents + weight + gift + size + stage + due + lines + who.name + boxes.length
                + answer + (coroutine == self ? "" : " (another coroutine?)");
    }

    private static String confirm(AsymCoroutine<? extends String, ? super String> self, String item, int quantity) {
        String question = "Confirm " + quantity + " x " + item + "?";
        String answer = self.ret(question); // the innermost frame: suspended here
        return answer + " (" + item + ")";
    }
}
