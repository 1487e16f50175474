package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import org.assertj.core.data.Offset
import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.EndpointWork
import stackbench.contract.IoStrategy
import stackbench.contract.Paths
import stackbench.contract.Stats

/**
 * The stats side channel counts completed exchanges, synchronous and asynchronous, but not /info or /actuator; it
 * reports the JVM's signals, and each endpoint's work with its CPU time.
 */
object StatsChecks {
    /** The JVM that runs the build runs the apps: on Linux with JDK 22+, a virtual thread's work is measured on its carrier. */
    private val carrierClock = System.getProperty("os.name").startsWith("Linux") && Runtime.version().feature() >= 22
    private const val CPU_LIMIT = 100_000
    private const val IO_DELAY = 100L

    fun check(soft: SoftAssertions, app: RunningApp) {
        val before = settled(app)
        soft.assertThat(before.epochMillis).`as`("stats clock").isCloseTo(System.currentTimeMillis(), Offset.offset(5_000L))
        repeat(5) { app.http.get(Paths.NOOP) }
        repeat(3) { app.http.get("/io/completable-future?delay=10") }
        repeat(2) { app.http.get("/io/mono-delay?delay=10") }
        app.http.get("/cpu/suspend?limit=10")
        app.http.get(Paths.INFO)
        app.http.get(Paths.HEALTH)
        val after = settled(app)
        val counted = after.completed - before.completed
        soft.assertThat(counted).`as`("exchanges counted: 5 sync, 6 async; /info and /actuator not").isEqualTo(11)
        soft.assertThat(delta(after, before, Paths.NOOP).count).`as`("/noop work counted").isEqualTo(5)
        soft.assertThat(delta(after, before, "/io/completable-future").count).`as`("/io/completable-future work counted").isEqualTo(3)
        soft.assertThat(delta(after, before, "/io/mono-delay")).`as`("/io/mono-delay: a timer, counted, not measured")
            .isEqualTo(EndpointWork(2, 0, 2))
        jvmSignals(soft, before, after)
    }

    /**
     * After [EndpointChecks] has called every strategy (platform threads): every endpoint has its work entry, the
     * computations and the sleeping threads are measured, the timers and asynchronous clients counted only.
     */
    fun everyEndpointHasWork(soft: SoftAssertions, app: RunningApp) {
        val work = settled(app).work
        soft.assertThat(work.keys).`as`("no work for the runner's probes").noneMatch { it == Paths.INFO || it == Stats.PATH || it.startsWith("/actuator") }
        for (strategy in CpuStrategy.entries) {
            val path = "/cpu/${strategy.id}"
            // coop's batches are timed on one request in Stats.STRETCH_SAMPLE, the first included
            val sampled = { count: Long -> if (strategy == CpuStrategy.COOP) (count + Stats.STRETCH_SAMPLE - 1) / Stats.STRETCH_SAMPLE else count }
            soft.assertThat(work[path]?.unmeasured).`as`("%s measured: %s", path, work[path]).isEqualTo(work[path]?.count?.let { it - sampled(it) })
            soft.assertThat(work[path]?.cpuNanos).`as`("%s CPU: %s", path, work[path]).isPositive()
        }
        for (strategy in IoStrategy.entries) {
            val path = "/io/${strategy.id}"
            val timer = strategy == IoStrategy.SUSPEND_DELAY || strategy == IoStrategy.MONO_DELAY
            soft.assertThat(work[path]?.count).`as`("%s counted: %s", path, work[path]).isPositive()
            soft.assertThat(work[path]?.unmeasured).`as`("%s: %s", path, work[path]).isEqualTo(if (timer) work[path]?.count else 0L)
        }
        for (client in DownstreamClient.entries) {
            val path = "/downstream/${client.id}"
            val blocking = client == DownstreamClient.SYNC_JAVA || client == DownstreamClient.REST_CLIENT
            soft.assertThat(work[path]?.count).`as`("%s counted: %s", path, work[path]).isPositive()
            soft.assertThat(work[path]?.unmeasured).`as`("%s: %s", path, work[path]).isEqualTo(if (blocking) 0L else work[path]?.count)
        }
        soft.assertThat(work[Paths.TODO]?.count).`as`("/todo: the GET and the POST that reached the handler: %s", work[Paths.TODO]).isEqualTo(2L)
    }

    /**
     * `/cpu/direct` and `/io/blocking` on the request thread: the primes' CPU is counted once per request, above 0 and
     * below the request's wall time; a sleep costs far less CPU than it lasts. On a virtual thread the primes are
     * measured on its carrier and the sleep (the thread leaves its carrier) is counted, unmeasured.
     */
    fun workCpu(soft: SoftAssertions, app: RunningApp, virtualThreads: Boolean) {
        val before = settled(app)
        val cpu = (1..5).map { app.http.get("/cpu/direct?limit=$CPU_LIMIT") }
        soft.assertThat(cpu.map { it.status }).`as`("/cpu/direct answers").containsOnly(200)
        val middle = settled(app)
        val io = (1..2).map { app.http.get("/io/blocking?delay=$IO_DELAY") }
        soft.assertThat(io.map { it.status }).`as`("/io/blocking answers").containsOnly(200)
        val after = settled(app)

        val direct = delta(middle, before, "/cpu/direct")
        val wallNanos = cpu.sumOf { (it.millis + 1) * 1_000_000 } // the client's ms, rounded up
        soft.assertThat(direct.count).`as`("/cpu/direct work: one per request: %s", direct).isEqualTo(5)
        if (!virtualThreads || carrierClock) {
            soft.assertThat(direct.unmeasured).`as`("/cpu/direct measured: %s", direct).isZero()
            soft.assertThat(direct.cpuNanos / 5).`as`("/cpu/direct CPU per request: %s", direct).isPositive()
            soft.assertThat(direct.cpuNanos).`as`("/cpu/direct CPU within the requests' wall time (%s ns): %s", wallNanos, direct)
                .isLessThanOrEqualTo(wallNanos)
        }

        val blocking = delta(after, middle, "/io/blocking")
        soft.assertThat(blocking.count).`as`("/io/blocking work: one per request: %s", blocking).isEqualTo(2)
        if (virtualThreads) {
            soft.assertThat(blocking).`as`("a sleeping virtual thread: counted, unmeasured").isEqualTo(EndpointWork(2, 0, 2))
        } else {
            soft.assertThat(blocking.unmeasured).`as`("/io/blocking measured: %s", blocking).isZero()
            soft.assertThat(blocking.cpuNanos / 2).`as`("a sleep's CPU, far below its %s ms: %s", IO_DELAY, blocking)
                .isLessThan(IO_DELAY * 1_000_000 / 20)
        }
        jvmSignals(soft, before, middle)
        jvmSignals(soft, middle, after)
    }

    /** The JVM's own signals are there and do not fall between two readings. */
    private fun jvmSignals(soft: SoftAssertions, before: Stats, after: Stats) {
        soft.assertThat(before.processCpuNanos).`as`("processCpuNanos").isNotNull().isPositive()
        soft.assertThat(before.compilationMillis).`as`("compilationMillis").isNotNull().isPositive()
        soft.assertThat(after.processCpuNanos).`as`("processCpuNanos does not fall").isGreaterThanOrEqualTo(before.processCpuNanos)
        soft.assertThat(after.compilationMillis).`as`("compilationMillis does not fall").isGreaterThanOrEqualTo(before.compilationMillis)
        soft.assertThat(after.gcCount).`as`("gcCount does not fall").isGreaterThanOrEqualTo(before.gcCount)
        soft.assertThat(after.gcMillis).`as`("gcMillis does not fall").isGreaterThanOrEqualTo(before.gcMillis)
        soft.assertThat(after.loadedClasses).`as`("loadedClasses").isGreaterThan(1_000)
    }

    private fun delta(after: Stats, before: Stats, path: String): EndpointWork {
        val a = after.work[path] ?: EndpointWork(0, 0, 0)
        val b = before.work[path] ?: EndpointWork(0, 0, 0)
        return EndpointWork(a.count - b.count, a.cpuNanos - b.cpuNanos, a.unmeasured - b.unmeasured)
    }

    /** Reads until two reads 200 ms apart agree: the last exchanges may be counted just after their answer. */
    private fun settled(app: RunningApp): Stats {
        var last = app.stats()
        repeat(20) {
            Thread.sleep(200)
            val now = app.stats()
            if (now.completed == last.completed && now.work == last.work) return now
            last = now
        }
        return last
    }
}
