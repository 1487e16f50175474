package stackbench.apps.endpoints.stats

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assumptions.assumeThat
import org.junit.jupiter.api.Test
import reactor.core.publisher.Mono
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.contract.EndpointWork
import stackbench.contract.Stats
import stackbench.workloads.Primes
import java.util.concurrent.CompletableFuture
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

class WorkCountersTest {

    @Test
    fun `off with the stats side channel, counting nothing`() {
        assertThat(WorkCounters(StackbenchProperties()).enabled).isFalse()
        assertThat(WorkCounters(StackbenchProperties(stats = StackbenchProperties.Stats(9999))).enabled).isTrue()
        val work = WorkCounters(false, FakeClock())
        assertThat(work.cpu("/noop") { "ok" }).isEqualTo("ok")
        assertThat(work.blocking("/io/blocking") { 1 }).isEqualTo(1)
        work.unmeasured("/io/mono-delay")
        assertThat(runBlocking { work.stretches("/cpu/coop") { s -> Primes.upToCooperative(10, 5, s).size } }).isEqualTo(4)
        assertThat(work.snapshot()).isEmpty()
    }

    @Test
    fun `each request counts once, with the CPU read before and after its work`() {
        val work = WorkCounters(true, FakeClock(step = 100))
        repeat(3) { assertThat(work.cpu("/cpu/direct") { it }).isEqualTo(it) }
        work.blocking("/io/blocking") { }
        assertThat(work.snapshot()).containsExactly(
            entry("/cpu/direct", EndpointWork(3, 300, 0)),
            entry("/io/blocking", EndpointWork(1, 100, 0)),
        )
    }

    @Test
    fun `work that throws is counted, and the exception goes on`() {
        val work = WorkCounters(true, FakeClock())
        assertThatThrownBy { work.blocking("/downstream/rest-client") { error("refused") } }.hasMessage("refused")
        assertThat(work.snapshot()["/downstream/rest-client"]).isEqualTo(EndpointWork(1, 100, 0))
    }

    @Test
    fun `a clock that cannot read makes the request unmeasured, not a zero`() {
        val clock = FakeClock()
        val work = WorkCounters(true, clock)
        work.cpu("/noop") { }
        clock.available = false
        work.cpu("/noop") { }
        work.unmeasured("/noop")
        val noop = work.snapshot().getValue("/noop")
        assertThat(noop).isEqualTo(EndpointWork(3, 100, 2))
        assertThat(noop.cpuNanosPerMeasured()).isEqualTo(100)
        assertThat(EndpointWork(2, 0, 2).cpuNanosPerMeasured()).isNull()
    }

    @Test
    fun `a reading that goes backwards (the work moved thread) is unmeasured`() {
        val work = WorkCounters(true, FakeClock())
        work.record("/cpu/direct", 500, 400)
        assertThat(work.snapshot().getValue("/cpu/direct")).isEqualTo(EndpointWork(1, 0, 1))
    }

    @Test
    fun `the snapshot lists the paths that did work, in path order`() {
        val work = WorkCounters(true, FakeClock())
        for (path in listOf("/todo", "/cpu/mono", "/noop", "/cpu/direct")) work.cpu(path) { }
        assertThat(work.snapshot().keys).containsExactly("/cpu/direct", "/cpu/mono", "/noop", "/todo")
    }

    @Test
    fun `a future or a mono is counted when it ends, success or failure, before what is chained to it`() {
        val work = WorkCounters(true, FakeClock())
        val future = CompletableFuture<String>()
        val answered = work.counted("/downstream/cf-java", future).thenApply { work.snapshot().getValue("/downstream/cf-java").count }
        assertThat(work.snapshot()).isEmpty()
        future.complete("body")
        assertThat(answered.join()).isEqualTo(1)
        work.counted("/downstream/cf-java", CompletableFuture.failedFuture<String>(IllegalStateException("502")))

        val seen = work.counted("/downstream/webclient", Mono.just("body")).map { work.snapshot().getValue("/downstream/webclient").count }.block()
        assertThat(seen).isEqualTo(1)
        assertThatThrownBy { work.counted("/downstream/webclient", Mono.error<String>(IllegalStateException("502"))).block() }
            .hasMessageContaining("502")
        assertThat(work.snapshot()).containsExactly(
            entry("/downstream/cf-java", EndpointWork(2, 0, 2)),
            entry("/downstream/webclient", EndpointWork(2, 0, 2)),
        )
    }

    @Test
    fun `coop's CPU is summed over its batches, each read on the thread that ran it, as one request`() {
        val work = WorkCounters(true, FakeClock(step = 1))
        // 9,999 numbers in batches of 1,000: 10 batches, 9 yields between them, each batch 1 fake ns
        val primes = runBlocking {
            withContext(Dispatchers.Default) { work.stretches("/cpu/coop") { batches -> Primes.upToCooperative(10_000, 1000, batches).size } }
        }
        assertThat(primes).isEqualTo(1229)
        assertThat(work.snapshot().getValue("/cpu/coop")).isEqualTo(EndpointWork(1, 10, 0))
    }

    @Test
    fun `coop measures one request in STRETCH_SAMPLE, the first of each, and counts the others unmeasured`() {
        val clock = FakeClock(step = 1)
        val work = WorkCounters(true, clock)
        fun coop() = runBlocking { work.stretches("/cpu/coop") { batches -> Primes.upToCooperative(10_000, 1000, batches).size } }
        val requests = 2 * Stats.STRETCH_SAMPLE.toInt() + 1
        repeat(requests) { assertThat(coop()).isEqualTo(1229) }
        // three sampled requests (the 1st, 17th and 33rd), 10 batches of 1 fake ns each, two clock reads a batch
        assertThat(work.snapshot().getValue("/cpu/coop")).isEqualTo(EndpointWork(requests.toLong(), 30, requests - 3L))
        assertThat(clock.reads).isEqualTo(3L * 10 * 2)
        assertThat(work.snapshot().getValue("/cpu/coop").cpuNanosPerMeasured()).isEqualTo(10)
    }

    @Test
    fun `the real clock measures the primes on a platform thread, within the wall time`() {
        val work = WorkCounters(true, JvmThreadCpu)
        val started = System.nanoTime()
        repeat(3) { work.cpu("/cpu/direct") { Primes.upTo(100_000) } }
        val wall = System.nanoTime() - started
        val direct = work.snapshot().getValue("/cpu/direct")
        assertThat(direct.count).isEqualTo(3)
        assertThat(direct.unmeasured).isZero()
        assertThat(direct.cpuNanos).isPositive().isLessThanOrEqualTo(wall)
    }

    @Test
    fun `with the real clock a sleeping platform thread costs next to no CPU`() {
        val work = WorkCounters(true, JvmThreadCpu)
        work.blocking("/io/blocking") { Thread.sleep(50) }
        val blocking = work.snapshot().getValue("/io/blocking")
        assertThat(blocking).extracting({ it.count }, { it.unmeasured }).containsExactly(1L, 0L)
        assertThat(blocking.cpuNanos).isLessThan(5_000_000) // 10% of the sleep; in fact some µs
    }

    @Test
    fun `with the real clock coop on Dispatchers Default measures its batches' CPU, within the wall time`() {
        val work = WorkCounters(true, JvmThreadCpu)
        val started = System.nanoTime()
        runBlocking { withContext(Dispatchers.Default) { work.stretches("/cpu/coop") { Primes.upToCooperative(100_000, 100, it) } } }
        val wall = System.nanoTime() - started
        val coop = work.snapshot().getValue("/cpu/coop")
        assertThat(coop.count).isEqualTo(1)
        assertThat(coop.cpuNanos).isPositive().isLessThanOrEqualTo(wall)
    }

    @Test
    fun `the JVM gives no CPU time for a virtual thread, so a wait on one is counted, unmeasured`() {
        val mx = java.lang.management.ManagementFactory.getThreadMXBean()
        val work = WorkCounters(true, JvmThreadCpu)
        val fromMx = onVirtualThread {
            val before = mx.currentThreadCpuTime
            work.blocking("/io/blocking") { Thread.sleep(20) }
            before
        }
        assertThat(fromMx).isEqualTo(-1)
        assertThat(work.snapshot().getValue("/io/blocking")).isEqualTo(EndpointWork(1, 0, 1))
    }

    @Test
    fun `on a virtual thread, work that stays on its carrier is measured on the carrier`() {
        assumeThat(JvmThreadCpu.virtual).`as`("the OS thread clock (Linux, JDK 22+)").isTrue()
        val work = WorkCounters(true, JvmThreadCpu)
        val wall = onVirtualThread {
            val started = System.nanoTime()
            repeat(3) { work.cpu("/cpu/direct") { Primes.upTo(100_000) } }
            System.nanoTime() - started
        }
        val direct = work.snapshot().getValue("/cpu/direct")
        assertThat(direct.count).isEqualTo(3)
        assertThat(direct.unmeasured).isZero()
        assertThat(direct.cpuNanos).isPositive().isLessThanOrEqualTo(wall)
    }

    @Test
    fun `the OS thread clock agrees with the JVM's on a platform thread`() {
        assumeThat(JvmThreadCpu.virtual).`as`("the OS thread clock (Linux, JDK 22+)").isTrue()
        val os = OsThreadCpu.create()!!
        val mx = java.lang.management.ManagementFactory.getThreadMXBean()
        val (byMx, byOs) = Executors.newSingleThreadExecutor().use { one ->
            one.submit<Pair<Long, Long>> {
                val m0 = mx.currentThreadCpuTime
                val o0 = os.asLong
                Primes.upTo(300_000)
                val o1 = os.asLong
                val m1 = mx.currentThreadCpuTime
                (m1 - m0) to (o1 - o0)
            }.get(60, TimeUnit.SECONDS)
        }
        assertThat(byOs).isPositive().isLessThanOrEqualTo(byMx)
        assertThat(byMx - byOs).isLessThan(byMx / 10 + 1_000_000)
    }

    @Test
    fun `many threads at once, every count kept`() {
        val work = WorkCounters(true, FakeClock(step = 1))
        val pool = Executors.newFixedThreadPool(8)
        try {
            (1..8).map { pool.submit { repeat(10_000) { work.cpu("/noop") { } } } }.forEach { it.get(60, TimeUnit.SECONDS) }
        } finally {
            pool.shutdown()
        }
        val noop = work.snapshot().getValue("/noop")
        assertThat(noop.count).isEqualTo(80_000)
        assertThat(noop.unmeasured).isZero()
    }

    private fun <T> onVirtualThread(body: () -> T): T {
        var result: Result<T>? = null
        Thread.ofVirtual().start { result = runCatching(body) }.join()
        return result!!.getOrThrow()
    }

    private fun entry(path: String, work: EndpointWork) = org.assertj.core.api.Assertions.entry(path, work)
}
