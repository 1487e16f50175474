package stackbench.runner.host.relay

import java.util.concurrent.ArrayBlockingQueue

/**
 * A one-way line that holds each item for a fixed [delayNanos] from when it was put in, and gives items out in
 * the order they came: the relay's model of a link's one-way latency. Items put in at times t1 <= t2 come out no
 * earlier than t1 + d and t2 + d, in that order, so a slow reader never reorders a stream. At most [capacity]
 * items wait; [put] blocks beyond that, as a full TCP window holds back the sender.
 */
class DelayLine<T>(
    private val delayNanos: Long,
    capacity: Int,
    private val clock: () -> Long = System::nanoTime,
    private val sleep: (Long) -> Unit = { nanos -> if (nanos > 0) Thread.sleep(nanos / 1_000_000, (nanos % 1_000_000).toInt()) },
    private val late: (Long) -> Unit = {},
) {
    private class Held<T>(val item: T, val dueNanos: Long)

    private val queue = ArrayBlockingQueue<Held<T>>(capacity)

    fun put(item: T) = queue.put(Held(item, clock() + delayNanos))

    /**
     * The next item, once its time has come (waits for one to arrive, then for its due time). How late it comes
     * out, in ns past its due time, goes to [late]: the wake-up's own delay, or a writer that fell behind.
     */
    fun take(): T {
        val held = queue.take()
        var left = held.dueNanos - clock()
        while (left > 0) {
            sleep(left)
            left = held.dueNanos - clock()
        }
        late(-left)
        return held.item
    }
}
