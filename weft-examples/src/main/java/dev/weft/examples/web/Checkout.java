package dev.weft.examples.web;

import dev.weft.AsymCoroutine;
import dev.weft.AsymRunnable;

import java.io.Serializable;
import java.math.BigDecimal;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A checkout written as one method: it asks for an amount, then charges it through a payment
 * service; while the service is down ({@link #PAYMENTS_UP}, switched on the demo's
 * {@code /payments} page, as an outage would) the charging step throws, and the session is
 * stored as failed, its frames kept. Once the service is back, an operator retries the failed
 * step from the console, and the checkout finishes where it failed. Its class must be woven.
 */
public final class Checkout implements AsymRunnable<String, String>, Serializable {

    private static final long serialVersionUID = 1L;

    /** Whether the demo's payment service answers: this process's, a demonstration's stand-in for another system. */
    static final AtomicBoolean PAYMENTS_UP = new AtomicBoolean(true);

    @Override
    public String run(AsymCoroutine<? extends String, ? super String> self, String ignored) {
        String asked = "Amount to pay, in euros?";
        while (true) {
            String answer = self.ret(asked).strip();
            BigDecimal amount = amount(answer);
            if (amount == null) {
                asked = "\"" + answer + "\" is not an amount. Amount to pay, in euros?";
                continue;
            }
            return "Paid " + charge(amount) + " euros.";
        }
    }

    private static BigDecimal amount(String answer) {
        try {
            BigDecimal amount = new BigDecimal(answer);
            return amount.signum() > 0 && amount.scale() <= 2 ? amount : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The payment service's call: fails while it is down, having charged nothing. */
    private static BigDecimal charge(BigDecimal amount) {
        if (!PAYMENTS_UP.get()) {
            throw new IllegalStateException("the payment service is down: " + amount + " euros were not charged");
        }
        return amount;
    }
}
