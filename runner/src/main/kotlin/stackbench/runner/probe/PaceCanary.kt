package stackbench.runner.probe

import stackbench.runner.results.PaceReading
import java.lang.management.ManagementFactory
import java.time.Duration

/**
 * The machine's own pace, read beside each measured window. A fixed piece of arithmetic that lives in registers
 * (an xorshift over one long, no memory touched) is timed in this thread's CPU time a few times a second, on the
 * runner's CPUs. Neither the app nor the load generator changes its cost (measured: 326,775 ns a piece with the
 * other CPU idle, 327,125 with it busy); what does is the host under the virtual machine: a slower clock, or time
 * the hypervisor took from the virtual CPU that the guest still charges to the thread that was running.
 * Its cost: [pieces] pieces of about 0.33 ms every [interval], about 1 % of one CPU.
 */
class PaceCanary(private val interval: Duration = Duration.ofMillis(100), private val pieces: Int = 3) {
    private val readings = java.util.concurrent.ConcurrentLinkedQueue<Long>()
    @Volatile private var running = false
    private var thread: Thread? = null

    fun start() {
        readings.clear()
        running = true
        thread = Thread({ loop() }, "stackbench-pace").apply { isDaemon = true; start() }
    }

    /** Stops the readings and returns them, or null when there were none. */
    fun stop(): PaceReading? {
        running = false
        thread?.interrupt()
        thread?.join(1_000)
        thread = null
        return PaceReading.of(readings.toList())
    }

    /** Reads the pace for [duration] on the caller's thread: the run's first reference, before any app starts. */
    fun calibrate(duration: Duration): PaceReading? {
        readings.clear()
        val end = System.nanoTime() + duration.toNanos()
        while (System.nanoTime() < end) tick()
        return PaceReading.of(readings.toList())
    }

    private fun loop() {
        while (running) {
            tick()
            try { Thread.sleep(interval.toMillis()) } catch (e: InterruptedException) { return }
        }
    }

    private fun tick() {
        val bean = ManagementFactory.getThreadMXBean()
        repeat(pieces) {
            val before = bean.currentThreadCpuTime
            sink = sink xor piece(sink)
            readings += bean.currentThreadCpuTime - before
        }
    }

    companion object {
        /** Keeps the arithmetic from being optimised away. */
        @Volatile private var sink = 88172645463325252L

        /** The fixed piece of work: 200,000 rounds of xorshift64. */
        internal fun piece(seed: Long): Long {
            var x = if (seed == 0L) 1L else seed // xorshift stays at 0 from 0
            for (i in 0 until 200_000) {
                x = x xor (x shl 13)
                x = x xor (x ushr 7)
                x = x xor (x shl 17)
            }
            return x
        }
    }
}
