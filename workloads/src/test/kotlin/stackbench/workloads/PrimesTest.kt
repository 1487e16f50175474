package stackbench.workloads

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.junit.jupiter.api.Test
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

class PrimesTest {

    @ParameterizedTest(name = "π({0}) = {1}")
    @CsvSource("100,25", "1000,168", "10000,1229", "50000,5133", "100000,9592", "200000,17984", "300000,25997")
    fun `trial division finds every prime`(limit: Int, count: Int) {
        assertThat(Primes.upTo(limit)).hasSize(count)
    }

    @ParameterizedTest(name = "π({0}) = {1} with batch {2}")
    @CsvSource(
        "100,25,1", "1000,168,100", "10000,1229,1000", "50000,5133,7",
        "100000,9592,10000", "200000,17984,100000", "300000,25997,1000000",
    )
    fun `the cooperative variant finds the same primes`(limit: Int, count: Int, batch: Int) {
        val primes = runBlocking { Primes.upToCooperative(limit, batch) }
        assertThat(primes).hasSize(count).isEqualTo(Primes.upTo(limit))
    }

    @ParameterizedTest(name = "π({0}) = {1}")
    @CsvSource("100,25", "1000,168", "10000,1229", "50000,5133", "100000,9592", "200000,17984", "300000,25997")
    fun `the guarded variant finds the same primes`(limit: Int, count: Int) {
        assertThat(GuardedPrimes(permits = 1).upTo(limit)).hasSize(count)
    }

    @Test
    fun `small and edge limits`() {
        assertThat(Primes.upTo(0)).isEmpty()
        assertThat(Primes.upTo(1)).isEmpty()
        assertThat(Primes.upTo(2)).containsExactly(2)
        assertThat(Primes.upTo(30)).containsExactly(2, 3, 5, 7, 11, 13, 17, 19, 23, 29)
    }

    @Test
    fun `the cooperative variant yields, so coroutines on one thread interleave`() {
        val single = Executors.newSingleThreadExecutor()
        try {
            val order = java.util.Collections.synchronizedList(mutableListOf<String>())
            runBlocking {
                withContext(single.asCoroutineDispatcher()) {
                    val a = async { Primes.upToCooperative(2_000, 100).also { order.add("a") } }
                    val b = launch { repeat(5) { kotlinx.coroutines.yield() }; order.add("b") }
                    awaitAll(a)
                    b.join()
                    // b needs only 5 turns; a yields 20 times, so b finishes first
                    assertThat(order).containsExactly("b", "a")
                }
            }
        } finally {
            single.shutdownNow()
        }
    }

    @Test
    fun `each batch is one stretch, started and ended on the thread that runs it, none around a yield`() {
        val events = java.util.Collections.synchronizedList(mutableListOf<String>())
        val stretches = object : Stretches {
            private var next = 0L
            private var open = false

            override fun start(): Long {
                check(!open) { "a stretch started inside another" }
                open = true
                events.add("start@${Thread.currentThread().name}")
                return ++next
            }

            override fun end(start: Long) {
                check(open && start == next) { "end($start) without its start" }
                open = false
                events.add("end@${Thread.currentThread().name}")
            }
        }
        // 2..2500 is 2,499 numbers: batches of 1,000, 1,000 and 499, so two yields and three stretches
        val primes = runBlocking { withContext(Dispatchers.Default) { Primes.upToCooperative(2_500, 1000, stretches) } }
        assertThat(primes).isEqualTo(Primes.upTo(2_500))
        assertThat(events).hasSize(6)
        for (k in 0 until 3) {
            assertThat(events[2 * k]).startsWith("start@")
            assertThat(events[2 * k + 1]).isEqualTo("end@" + events[2 * k].substringAfter('@'))
        }
    }

    @Test
    fun `batch must be positive`() {
        assertThatThrownBy { runBlocking { Primes.upToCooperative(10, 0) } }
            .isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("batch")
    }

    @Test
    fun `the semaphore lets no more than its permits compute at once`() {
        val guarded = GuardedPrimes(permits = 2)
        val pool = Executors.newFixedThreadPool(6)
        val start = CountDownLatch(1)
        var lowest = Int.MAX_VALUE
        val watcher = Thread {
            while (!Thread.currentThread().isInterrupted) {
                lowest = minOf(lowest, guarded.availablePermits())
                Thread.onSpinWait()
            }
        }
        try {
            watcher.start()
            val futures = (1..6).map { pool.submit<Int> { start.await(); guarded.upTo(200_000).size } }
            start.countDown()
            assertThat(futures.map { it.get(60, TimeUnit.SECONDS) }).containsOnly(17984)
        } finally {
            watcher.interrupt()
            pool.shutdownNow()
        }
        assertThat(lowest).isEqualTo(0) // both permits were taken at some point, never more
        assertThat(guarded.availablePermits()).isEqualTo(2)
    }

    @Test
    fun `withPermit runs the work holding a permit and gives it back, also when the work throws`() {
        val guarded = GuardedPrimes(permits = 3)
        assertThat(guarded.withPermit { guarded.availablePermits() }).isEqualTo(2)
        assertThatThrownBy { guarded.withPermit { error("boom") } }.hasMessage("boom")
        assertThat(guarded.availablePermits()).isEqualTo(3)
    }

    @Test
    fun `permits must be positive`() {
        assertThatThrownBy { GuardedPrimes(0) }.hasMessageContaining("permits")
    }
}
