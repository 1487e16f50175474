package stackbench.runner.cell

import stackbench.runner.probe.ServerCount
import stackbench.runner.probe.WorkCount
import java.time.Duration
import java.util.Random
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class WarmupWatchTest {
    /**
     * A fake app read once per second: [rate] requests per second at second t (with [noise] relative Gaussian noise),
     * [cpuMs] of CPU per second (1,000: saturated), of which [compileMs] went to the JIT.
     */
    private class FakeApp(
        val rate: (Int) -> Double, val compileMs: (Int) -> Long, val noise: Double = 0.0, seed: Long = 7, val cpuMs: Long = 1_000,
        /** The wall clock the JIT's compilations took in second t (CompilationMXBean), ms; null: not reported. */
        val compilingMs: ((Int) -> Long)? = null,
    ) {
        private val random = Random(seed)
        private var t = 0
        private var completed = 0L
        private var compiled = 0L
        private var compiling = 0L
        private var noopWork = 0L
        /** The compiler threads' CPU as of the last reading, ms. */
        var compilerCpuMs = 0.0
            private set
        fun read(): ServerCount {
            val reading = ServerCount(1_000L * t, completed, processCpuNanos = cpuMs * 1_000_000L * t,
                compilationMs = compilingMs?.let { compiling }, work = mapOf("/noop" to WorkCount(completed, noopWork)))
            compilingMs?.let { compiling += it(t) }
            compilerCpuMs = compiled.toDouble()
            val r = rate(t) * (1 + noise * random.nextGaussian())
            completed += r.toLong()
            noopWork += r.toLong() * 10_000 // 10 µs of handler work per request
            compiled += compileMs(t)
            t++
            return reading
        }
    }

    private fun watch(app: FakeApp) = WarmupWatch(app::read, Duration.ofSeconds(1), compilerCpuMs = { app.compilerCpuMs })

    /** Polls until steady or [max] readings; returns the readings taken. */
    private fun runUntilSteady(w: WarmupWatch, max: Int): Int {
        for (i in 1..max) if (w.poll()) return i
        return max
    }

    @Test
    fun `two agreeing slices on a plateau are not steady while the compiler still works`() {
        // 1,314 then 2,304 and 2,407 req/s (the plateau the old rule took for steady), then 4,800 from second 8;
        // the JIT takes 20 % of the CPU until second 8, then nothing
        val app = FakeApp(rate = { t -> when { t < 2 -> 1314.0; t < 8 -> 2350.0; else -> 4800.0 } }, compileMs = { t -> if (t < 8) 200 else 0 }, noise = 0.01)
        val w = watch(app)
        val polls = runUntilSteady(w, 40)
        assertThat(w.steady()).isTrue()
        assertThat(polls).isGreaterThan(8 + WarmupWatch.FLAT_SLICES)
        assertThat(w.steadyFromSeconds()!!).isCloseTo(8.0, within(1.0))
        assertThat(w.record(polls.toDouble()).endedBy).isEqualTo("steady")
    }

    @Test
    fun `a plateau with a quiet compiler is still not steady until the changepoint is behind`() {
        val app = FakeApp(rate = { t -> if (t < 10) 1000.0 else 2000.0 }, compileMs = { 0 }, noise = 0.01)
        val w = watch(app)
        // before the jump the series is flat and the compiler quiet: steady is the honest answer there
        repeat(8) { w.poll() }
        assertThat(w.steady()).isTrue()
        // after it, the watch waits for FLAT_SLICES slices at the new level
        // readings at t = 8..12: the slices 10-11 and 11-12 are the first at the new level
        repeat(5) { w.poll() }
        assertThat(w.steady()).isFalse()
        repeat(WarmupWatch.FLAT_SLICES + 1) { w.poll() }
        assertThat(w.steady()).isTrue()
        assertThat(w.steadyFromSeconds()!!).isCloseTo(10.0, within(1.0))
    }

    @Test
    fun `the tail of a ramp is not counted into the level it reaches`() {
        // a warm-up known truth's slices as a CI run read them: an extra cost falling to nothing ends in the slice from 14 s
        val rates = listOf(187, 273, 285, 291, 375, 293, 377, 464, 420, 525, 548, 609, 749, 847, 958, 995, 967, 989, 997, 963, 992, 999, 998)
        var t = 0
        var completed = 0L
        val w = WarmupWatch({ ServerCount(1000L * t, completed).also { if (t < rates.size) completed += rates[t]; t++ } }, Duration.ofSeconds(1))
        repeat(rates.size + 1) { w.poll() }
        assertThat(w.steadyFromSeconds()!!).isCloseTo(14.0, within(0.5))
        assertThat(w.steady()).isTrue()
    }

    @Test
    fun `a compiler on CPU that no request wanted does not hold back an app waiting on I-O`() {
        // Tomcat sleeping 100 ms per request at 490 req/s: the app uses 30 % of its CPU, the JIT 25 % of it, for minutes
        val app = FakeApp(rate = { 490.0 }, compileMs = { 250 }, noise = 0.01, cpuMs = 300)
        val w = watch(app)
        assertThat(runUntilSteady(w, 20)).isLessThan(10)
        val last = w.record(10.0).slices.last()
        assertThat(last.compileShare!!).isCloseTo(0.25, within(0.01))
        assertThat(last.cpuShare!!).isCloseTo(0.30, within(0.01))
    }

    @Test
    fun `priming waits for the compiler even on idle CPU`() {
        val app = FakeApp(rate = { 490.0 }, compileMs = { 250 }, noise = 0.01, cpuMs = 300)
        val w = WarmupWatch(app::read, Duration.ofSeconds(1), compilerCpuMs = { app.compilerCpuMs }, compilerOnIdleCpuQuiet = false)
        assertThat(runUntilSteady(w, 20)).isEqualTo(20)
    }

    @Test
    fun `a compiler on a CPU more than half busy holds the warm-up back`() {
        val app = FakeApp(rate = { 2000.0 }, compileMs = { 200 }, noise = 0.01, cpuMs = 600)
        val w = watch(app)
        assertThat(runUntilSteady(w, 20)).isEqualTo(20)
        assertThat(w.record(20.0).endedBy).isEqualTo("cap")
    }

    @Test
    fun `a compiler starved of the CPU holds the warm-up back while its compilations take the clock`() {
        // Tomcat's /noop at 50 connections on one CPU (measured by hand, 2026-11-26): the compiler threads got 1-2 % of
        // the CPU, under the CPU rule, while compilations were under way 10-50 % of each second; the rate still
        // stepped up 15 % when they ended. Here: 1 % of the CPU and 30 % of the clock until second 20, then nothing.
        val app = FakeApp(rate = { t -> if (t < 20) 24_000.0 else 27_600.0 }, compileMs = { t -> if (t < 20) 10 else 0 }, noise = 0.01,
            compilingMs = { t -> if (t < 20) 300 else 0 })
        val w = watch(app)
        val polls = runUntilSteady(w, 60)
        assertThat(w.steady()).isTrue()
        // the clock's whole span after the last busy slice
        assertThat(polls).isGreaterThan(20 + WarmupWatch.CLOCK_QUIET_SLICES)
        assertThat(w.steadyFromSeconds()!!).isCloseTo(20.0, within(1.0))
        val slices = w.record(polls.toDouble()).slices
        assertThat(slices.first().compilingShare!!).isCloseTo(0.30, within(0.01))
        assertThat(slices.first().compileShare!!).isLessThanOrEqualTo(WarmupWatch.COMPILE_QUIET)
        // without the clock the CPU rule alone would have ended the warm-up on the first plateau
        val blind = FakeApp(rate = { t -> if (t < 20) 24_000.0 else 27_600.0 }, compileMs = { t -> if (t < 20) 10 else 0 }, noise = 0.01)
        assertThat(runUntilSteady(watch(blind), 60)).isLessThan(20)
    }

    @Test
    fun `compilations that take the clock on CPU no request wanted do not hold back an app waiting on I-O`() {
        val app = FakeApp(rate = { 490.0 }, compileMs = { 250 }, noise = 0.01, cpuMs = 300, compilingMs = { 400 })
        assertThat(runUntilSteady(watch(app), 20)).isLessThan(10)
    }

    @Test
    fun `no reading in the driver's last half second, where a slice would be partial`() {
        val app = FakeApp(rate = { 1000.0 }, compileMs = { 0 })
        val w = watch(app)
        val length = Duration.ofSeconds(10)
        w.pollUntilEnding(0, length)
        w.pollUntilEnding(1_000_000_000L, length)
        assertThat(w.slices).hasSize(1)
        w.pollUntilEnding(length.toNanos() - WarmupWatch.TAIL_NANOS, length)
        assertThat(w.slices).hasSize(1)
    }

    @Test
    fun `a throughput still rising is not steady, and a capped warm-up says so`() {
        val app = FakeApp(rate = { t -> 1000.0 + 100.0 * t }, compileMs = { 0 })
        val w = watch(app)
        assertThat(runUntilSteady(w, 20)).isEqualTo(20)
        assertThat(w.steady()).isFalse()
        assertThat(w.record(20.0).endedBy).isEqualTo("cap")
    }

    @Test
    fun `a closed load waiting out seconds-long sleeps is steady on compilation alone, though its slices alternate`() {
        // Tomcat on 10 threads, 30 connections, a 2 s sleep (a lab run's slices): a wave of 10 answers every other
        // second, the app using 2 % of its CPU; no flatness rule can level 0, 10, 0, 10
        val waves = { t: Int -> if (t % 2 == 0) 0.0 else 10.0 }
        val w = WarmupWatch(FakeApp(rate = waves, compileMs = { 0 }, cpuMs = 20).let { app -> app::read }, Duration.ofSeconds(1), connections = 30)
        val polls = runUntilSteady(w, 20)
        assertThat(polls).isEqualTo(WarmupWatch.LIGHT_SLICES + 1)
        val record = w.record(polls.toDouble())
        assertThat(record.endedBy).isEqualTo("light")
        assertThat(record.steadyAfterSeconds).isEqualTo(0.0)
        // the same app seen as an open load (no connections to count a round trip by) waits for a level it never reaches
        val open = watch(FakeApp(rate = waves, compileMs = { 0 }, cpuMs = 20))
        assertThat(runUntilSteady(open, 20)).isEqualTo(20)
        assertThat(open.record(20.0).endedBy).isEqualTo("cap")
    }

    @Test
    fun `a wait that still shrinks is a trend light work does not end, and the steady state starts where it stops`() {
        // the warm-up known truth: 100 connections, 100 ms plus an extra wait falling from 300 ms to 0 over 15 s, the
        // app on 2 % of its CPU; a CI run ended this warm-up on light work 15 s early, before the rate had stopped rising
        // (completions come in steps of whole requests per connection, a staircase: 193, 290, 290, 289, 380, 289 req/s)
        val truth = { t: Int -> 100.0 * kotlin.math.floor(1.0 / (0.1 + 0.3 * maxOf(0.0, 1 - t / 15.0))) }
        val app = FakeApp(rate = truth, compileMs = { 0 }, noise = 0.02, cpuMs = 20)
        val w = WarmupWatch(app::read, Duration.ofSeconds(1), connections = 100)
        val polls = runUntilSteady(w, 40)
        assertThat(w.steady()).isTrue()
        assertThat(polls).isGreaterThan(15)
        assertThat(w.steadyFromSeconds()!!).isCloseTo(15.0, within(1.0))
    }

    @Test
    fun `a closed load flat at its Little's-law ceiling ends its warm-up there while the compiler still works`() {
        // the quick suite's platform cell: 50 request threads, 100 connections, a 100 ms sleep: 500 req/s at most, reached
        // after 3 s; C2 keeps compiling on the app's one CPU (5 % of it a second) while the app keeps 70 % of it busy, so neither
        // the steady rule nor light work ends it
        val rate = { t: Int -> if (t < 3) 200.0 + 100.0 * t else 497.0 }
        val app = FakeApp(rate = rate, compileMs = { 50 }, noise = 0.01, cpuMs = 700)
        val w = WarmupWatch(app::read, Duration.ofSeconds(1), compilerCpuMs = { app.compilerCpuMs }, connections = 100, ceiling = 500.0)
        val polls = runUntilSteady(w, 25)
        assertThat(polls).`as`("slices until the last 6 sit at the ceiling").isBetween(WarmupWatch.FLAT_SLICES + 3, WarmupWatch.FLAT_SLICES + 5)
        assertThat(w.record(polls.toDouble()).endedBy).isEqualTo("ceiling")
        // the same app without a ceiling (an open load, a law that does not apply) waits for its compiler to its cap
        val same = FakeApp(rate = rate, compileMs = { 50 }, noise = 0.01, cpuMs = 700)
        val without = WarmupWatch(same::read, Duration.ofSeconds(1), compilerCpuMs = { same.compilerCpuMs }, connections = 100)
        assertThat(runUntilSteady(without, 25)).isEqualTo(25)
    }

    @Test
    fun `a rate under its ceiling, or still climbing to it, is no ceiling end`() {
        // 10 % under the ceiling (the quick suite's pool at 100 % of its CPU): the CPU, not the wait, binds it, and the JIT can raise it
        val under = FakeApp(rate = { 900.0 }, compileMs = { 50 }, noise = 0.01)
        assertThat(runUntilSteady(WarmupWatch(under::read, Duration.ofSeconds(1), compilerCpuMs = { under.compilerCpuMs }, connections = 100, ceiling = 1000.0), 25)).isEqualTo(25)
        // at it on average, but still climbing 3 % a slice through the last 5 %: a trend, so no end yet
        fun slices(vararg rates: Long) = rates.map { WarmupSlice(1.0, 1.0, it, 0.0) }
        assertThat(WarmupWatch.atCeiling(slices(880, 910, 940, 970, 1000, 1030), 1000.0)).isFalse()
        assertThat(WarmupWatch.atCeiling(slices(960, 955, 962, 958, 961, 957), 1000.0)).isTrue()
        assertThat(WarmupWatch.atCeiling(slices(940, 945, 938, 942, 941, 939), 1000.0)).`as`("6 % under").isFalse()
        assertThat(WarmupWatch.atCeiling(slices(960, 955, 962, 958, 961), 1000.0)).`as`("five slices").isFalse()
    }

    @Test
    fun `a saturated CPU is no light work, however long the round trips its queue makes`() {
        // /noop at 400 connections on one CPU: 12,000 req/s, a 33 ms round trip, 0.08 ms of CPU per answer (0.25 %),
        // but the whole CPU busy: a JIT that halves that CPU halves the round trip, so only a level may end it
        val saturated = FakeApp(rate = { t -> if (t % 2 == 0) 10_000.0 else 14_000.0 }, compileMs = { 0 }, cpuMs = 1_000)
        val w = WarmupWatch(saturated::read, Duration.ofSeconds(1), connections = 400)
        assertThat(runUntilSteady(w, 20)).isEqualTo(20)
        assertThat(w.record(20.0).endedBy).isEqualTo("cap")
    }

    @Test
    fun `the steady state of light work starts at the earliest slice after which the rate has no trend`() {
        val rates = listOf(250.0, 400.0, 600.0, 800.0) + List(12) { 1000.0 + 10 * (it % 3 - 1) }
        assertThat(WarmupWatch.untrendedFrom(rates)).isEqualTo(4)
        // alternating waves from the start have no trend at all
        assertThat(WarmupWatch.untrendedFrom(List(14) { if (it % 2 == 0) 0.0 else 10.0 })).isEqualTo(0)
    }

    @Test
    fun `work that is a real part of the round trip still needs a level`() {
        // a saturated CPU whose throughput still rises, 50 connections: 1 s of CPU a second is 2 % of each round trip
        val rising = { t: Int -> 1000.0 + 100.0 * t }
        val w = WarmupWatch(FakeApp(rate = rising, compileMs = { 0 }).let { app -> app::read }, Duration.ofSeconds(1), connections = 50)
        assertThat(runUntilSteady(w, 20)).isEqualTo(20)
        assertThat(w.record(20.0).endedBy).isEqualTo("cap")
        // and light work with a compiler busy on a CPU more than half used waits for the compiler
        val busy = FakeApp(rate = { t -> if (t % 2 == 0) 0.0 else 10.0 }, compileMs = { 200 }, cpuMs = 600)
        val held = WarmupWatch(busy::read, Duration.ofSeconds(1), compilerCpuMs = { busy.compilerCpuMs }, connections = 30_000)
        assertThat(runUntilSteady(held, 20)).isEqualTo(20)
    }

    @Test
    fun `without the compiler threads' CPU the watch judges on throughput alone`() {
        var t = 0
        val w = WarmupWatch({ ServerCount(1000L * t, 500L * t).also { t++ } }, Duration.ofSeconds(1))
        assertThat(runUntilSteady(w, 20)).isLessThan(20)
        assertThat(w.slices.last().compileShare).isNull()
    }

    private fun cellWatch(app: FakeApp) =
        WarmupWatch(app::read, Duration.ofSeconds(1), compilerCpuMs = { app.compilerCpuMs }, throughputDecides = true)

    @Test
    fun `a flat throughput ends a cell's warm-up though the compilers never go quiet slice by slice`() {
        // the service A: 28,290-30,822 req/s, the JIT at 1.5 % of the CPU every slice (over the quiet rule's 1 %)
        val app = FakeApp(rate = { 29_500.0 }, compileMs = { 15 }, noise = 0.02)
        assertThat(runUntilSteady(watch(FakeApp(rate = { 29_500.0 }, compileMs = { 15 }, noise = 0.02)), 60)).`as`("the quiet rule alone").isEqualTo(60)
        val w = cellWatch(app)
        val polls = runUntilSteady(w, 60)
        assertThat(polls).isLessThan(60)
        val record = w.record(polls.toDouble())
        assertThat(record.endedBy).isEqualTo("flat")
        assertThat(record.steadyAfterSeconds!!).isLessThan(polls.toDouble())
        assertThat(stackbench.runner.results.Flags.of(null, null, false, "cgroup-v2", warmup = record).map { it.code }).doesNotContain("unsteady")
    }

    @Test
    fun `a flat throughput at the cap is steady at the cap, and a falling one is unsteady`() {
        // a compiler starved for the whole warm-up: 1 % of the CPU, its compilations under way 30 % of the clock
        val starved = FakeApp(rate = { 24_000.0 }, compileMs = { 10 }, noise = 0.02, compilingMs = { 300 })
        val w = cellWatch(starved)
        assertThat(runUntilSteady(w, 40)).isEqualTo(40)
        val flat = w.record(40.0)
        assertThat(flat.endedBy).isEqualTo("flat-at-cap")
        assertThat(stackbench.runner.results.Flags.of(null, null, false, "cgroup-v2", warmup = flat).map { it.code }).doesNotContain("unsteady")
        // the same compiler, the throughput losing 40 % a minute
        val falling = FakeApp(rate = { t -> 3_000.0 * (1 - 0.4 * t / 60) }, compileMs = { 10 }, noise = 0.02, compilingMs = { 300 })
        val f = cellWatch(falling)
        assertThat(runUntilSteady(f, 40)).isEqualTo(40)
        val capped = f.record(40.0)
        assertThat(capped.endedBy).isEqualTo("cap")
        assertThat(stackbench.runner.results.Flags.of(null, null, false, "cgroup-v2", warmup = capped).map { it.code }).contains("unsteady")
    }

    @Test
    fun `a starved compiler still holds a cell's warm-up back while its compilations take the clock`() {
        // as the test above without the throughput rule: 30 % of the clock until second 20, then the rate steps up 15 %
        val app = FakeApp(rate = { t -> if (t < 20) 24_000.0 else 27_600.0 }, compileMs = { t -> if (t < 20) 10 else 0 }, noise = 0.01,
            compilingMs = { t -> if (t < 20) 300 else 0 })
        val w = cellWatch(app)
        assertThat(runUntilSteady(w, 60)).isGreaterThan(20)
        assertThat(w.steadyFromSeconds()!!).isCloseTo(20.0, within(1.0))
    }

    @Test
    fun `the warm-up truth's ramp is not ended early by the throughput rule`() {
        // the known truth's slices as a CI run read them (the test above): the extra cost ends in the slice from 14 s
        val rates = listOf(187, 273, 285, 291, 375, 293, 377, 464, 420, 525, 548, 609, 749, 847, 958, 995, 967, 989, 997, 963, 992, 999, 998)
        val slices = rates.mapIndexed { i, r -> stackbench.runner.results.SliceRecord(i + 1.0, r.toDouble(), 0.0, 0.02, 0.0) }
        val ramp = slices.indices.filter { slices[it].endSeconds <= 15.0 }
        assertThat(ramp.none { SteadyThroughput.judge(slices.subList(0, it + 1), clockMatters = true).steady }).isTrue()
        var t = 0
        var completed = 0L
        val w = WarmupWatch({ ServerCount(1000L * t, completed).also { if (t < rates.size) completed += rates[t]; t++ } }, Duration.ofSeconds(1),
            throughputDecides = true)
        repeat(rates.size + 1) { w.poll() }
        assertThat(w.steadyFromSeconds()!!).isCloseTo(14.0, within(0.5))
    }

    @Test
    fun `the cost of an exchange is the CPU per answer less the handler's own work`() {
        // 2,000 answers in 1 s of CPU, 10 µs of it in the handler: 0.49 ms per exchange
        val a = ServerCount(0, 1000, processCpuNanos = 5_000_000_000L, work = mapOf("/noop" to WorkCount(1000, 10_000_000)))
        val b = ServerCount(1000, 3000, processCpuNanos = 6_000_000_000L, work = mapOf("/noop" to WorkCount(3000, 30_000_000)))
        assertThat(Priming.exchangeCpuMs(a, b)!!).isCloseTo(0.49, within(1e-9))
        // 200 ms of it in the JIT compiler threads: not the exchange's
        assertThat(Priming.exchangeCpuMs(a, b, compilerMs = 200.0)!!).isCloseTo(0.39, within(1e-9))
        assertThat(Priming.exchangeCpuMs(a, null)).isNull()
        assertThat(Priming.exchangeCpuMs(a, a)).isNull()
        assertThat(Priming.exchangeCpuMs(a.copy(processCpuNanos = null), b)).isNull()
    }

    @Test
    fun `the saturated exchange is read over the stage's last seconds, not from its start`() {
        val readings = (0..10).map { ServerCount(it * 1000L, it * 1000L) }
        val (first, last) = Priming.lastSeconds(readings, java.time.Duration.ofSeconds(3))!!
        assertThat(first.epochMs).isEqualTo(7000)
        assertThat(last.epochMs).isEqualTo(10_000)
        // a stage shorter than the span gives all it has
        assertThat(Priming.lastSeconds(readings.take(3), java.time.Duration.ofSeconds(3))!!.first.epochMs).isEqualTo(0)
        assertThat(Priming.lastSeconds(readings.take(1), java.time.Duration.ofSeconds(3))).isNull()
    }
}
