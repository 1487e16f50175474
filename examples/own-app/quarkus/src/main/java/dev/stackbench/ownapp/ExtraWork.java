package dev.stackbench.ownapp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A planted, known slowdown for measuring a regression gate: with {@code percent} = p, p of every 100 requests do
 * their work a second time, spread evenly (request k repeats when ⌊k·p/100⌋ passes a whole number), so the app's
 * work grows by exactly p % of the endpoint's own work, whatever the request order. 0 (the default) adds nothing.
 */
final class ExtraWork {
    private final int percent;
    private final AtomicLong requests = new AtomicLong();

    ExtraWork(int percent) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("ownapp.extra-work-percent = " + percent + ": allowed 0..100");
        }
        this.percent = percent;
    }

    /** Whether this request (the next one counted) repeats its work. */
    boolean repeatNext() {
        if (percent == 0) return false;
        long k = requests.incrementAndGet();
        return k * percent / 100 > (k - 1) * percent / 100;
    }
}
