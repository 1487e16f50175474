package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Named
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.Arguments
import org.junit.jupiter.params.provider.MethodSource

class WindowClassifierTest {
    /** A synthetic series and what it should classify as: [steadyFrom] ± [slack], or null. */
    class Case(val name: String, val build: (Long) -> List<Double>, val shape: WindowShape, val steadyFrom: Int?, val slack: Int = 0)

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("cases")
    fun `synthetic series classify as their shape`(case: Case, seed: Long) {
        val c = WindowClassifier.classify(case.build(seed))
        assertThat(c.shape).describedAs(c.reason).isEqualTo(case.shape)
        if (case.steadyFrom == null) {
            assertThat(c.steadyFrom).isNull()
        } else {
            assertThat(c.steadyFrom).describedAs(c.reason).isBetween(case.steadyFrom - case.slack, case.steadyFrom + case.slack)
        }
        // the segments tile the series
        assertThat(c.segments.first().from).isEqualTo(0)
        assertThat(c.segments.last().to).isEqualTo(case.build(seed).size)
        assertThat(c.segments.zipWithNext().all { (a, b) -> a.to == b.from }).isTrue()
    }

    @Test
    fun `every case holds for at least 95 in 100 seeds`() {
        for (case in table) {
            val held = (1L..200L).count { seed ->
                val c = WindowClassifier.classify(case.build(seed))
                c.shape == case.shape && when (val expected = case.steadyFrom) {
                    null -> c.steadyFrom == null
                    else -> c.steadyFrom != null && c.steadyFrom in expected - case.slack..expected + case.slack
                }
            }
            assertThat(held).describedAs(case.name).isGreaterThanOrEqualTo(190)
        }
    }

    @Test
    fun `the reason tells the segments with their figures`() {
        val c = WindowClassifier.classify(List(4) { 1310.0 } + List(12) { 2405.0 })
        assertThat(c.shape).isEqualTo(WindowShape.WARMING)
        assertThat(c.steadyFrom).isEqualTo(4)
        assertThat(c.reason).isEqualTo("2 segments: 1,310 req/s for 4 s, then 2,405 req/s from second 4, the fastest: warming, steady from second 4")
    }

    @Test
    fun `a slowing reason names the faster level it left`() {
        val c = WindowClassifier.classify(List(10) { 3000.0 } + List(20) { 2405.0 })
        assertThat(c.shape).isEqualTo(WindowShape.SLOWING)
        assertThat(c.steadyFrom).isEqualTo(10)
        assertThat(c.reason).isEqualTo(
            "2 segments: 3,000 req/s for 10 s, then 2,405 req/s from second 10, below the earlier 3,000 req/s: slowing, steady from second 10",
        )
    }

    @Test
    fun `a change near the end shows no steady state`() {
        val c = WindowClassifier.classify(List(36) { 2000.0 } + List(4) { 1200.0 })
        assertThat(c.shape).isEqualTo(WindowShape.NO_STEADY_STATE)
        assertThat(c.steadyFrom).isNull()
        assertThat(c.reason).isEqualTo(
            "2 segments: 2,000 req/s for 36 s, then 1,200 req/s from second 36: the last change is in the final 25 % of the 40 s, so no steady state is shown",
        )
    }

    @Test
    fun `steps smaller than the equivalence are merged into one flat level`() {
        val xs = Series(21, 0.005).hold(2000.0, 20).hold(2060.0, 20).hold(2000.0, 20).build()
        assertThat(Changepoints.find(xs)).hasSize(2) // PELT sees the 3 % step ...
        val c = WindowClassifier.classify(xs)
        assertThat(c.shape).isEqualTo(WindowShape.FLAT) // ... which is practically the same level
        assertThat(c.segments).hasSize(1)
        assertThat(c.steadyFrom).isEqualTo(0)
        assertThat(c.reason).startsWith("1 segment (after merging 2 changes of less than 5 %): 2,0")
        // the same steps count when the equivalence is tighter
        assertThat(WindowClassifier.classify(xs, equivalence = 0.01, excursion = 0.0).shape).isEqualTo(WindowShape.SLOWING)
    }

    @Test
    fun `a brief dip from the level a long window began and ended at leaves it flat`() {
        // a 10-minute window of the event-loop suite: 986 req/s, 2 s at 883, then 986 again; as warming it took
        // the cell out of its comparison, though the dip moves the window's mean by 0.03 %
        val xs = List(29) { 986.0 } + List(2) { 883.0 } + List(568) { 986.0 }
        val c = WindowClassifier.classify(xs)
        assertThat(c.shape).describedAs(c.reason).isEqualTo(WindowShape.FLAT)
        assertThat(c.steadyFrom).isEqualTo(0)
        assertThat(c.segments).hasSize(3)
        assertThat(c.reason).isEqualTo(
            "3 segments: 986 req/s for 29 s, then 883 req/s for 2 s, then 986 req/s from second 31: it began and ended at 986 req/s " +
                "and left it for 2 of 599 s (down to 883 req/s for 2 s), which moves the window's mean by 0.03 % (under 1 %): flat, steady from second 0",
        )
        // a burst is an excursion too
        val burst = WindowClassifier.classify(List(100) { 2000.0 } + List(3) { 2600.0 } + List(200) { 2000.0 })
        assertThat(burst.shape).describedAs(burst.reason).isEqualTo(WindowShape.FLAT)
        assertThat(burst.reason).contains("(up to 2,600 req/s for 3 s)")
    }

    @Test
    fun `a brief dip in the final quarter that comes back to the level the window began at is an excursion too`() {
        // Schedulers.parallel() at primes to 200,000 (a lab window of 133 s): 85.8 req/s for 121 s, 2 s at 70, then
        // back at 88.6 for the last 10 s; read as no steady state because its last change fell in the final quarter
        val xs = List(121) { if (it % 2 == 0) 85.0 else 86.6 } + listOf(79.0, 61.0) + List(10) { if (it % 2 == 0) 88.0 else 89.2 }
        val c = WindowClassifier.classify(xs)
        assertThat(c.shape).describedAs(c.reason).isEqualTo(WindowShape.FLAT)
        assertThat(c.reason).contains("it began and ended at").contains("for 2 s")
        // a change that stays to the end is still one: the window ends away from where it began
        val ended = WindowClassifier.classify(List(121) { if (it % 2 == 0) 85.0 else 86.6 } + List(12) { 61.0 })
        assertThat(ended.shape).describedAs(ended.reason).isEqualTo(WindowShape.NO_STEADY_STATE)
    }

    @Test
    fun `a spell that moves the mean, or a window that began below its level, is not an excursion`() {
        // 20 of 60 s at 700: the mean is 10 % under the level, so the window did not hold it
        val spell = WindowClassifier.classify(List(10) { 1000.0 } + List(20) { 700.0 } + List(30) { 1000.0 })
        assertThat(spell.shape).describedAs(spell.reason).isEqualTo(WindowShape.WARMING)
        assertThat(spell.steadyFrom).isEqualTo(30)
        // began at 900, dipped, ended at 1000: it got faster inside the window, however little that moved the mean
        val climbed = WindowClassifier.classify(List(5) { 900.0 } + List(2) { 600.0 } + List(593) { 1000.0 })
        assertThat(climbed.shape).describedAs(climbed.reason).isEqualTo(WindowShape.WARMING)
        // excursion 0 keeps every change of level a change (the warm-up's reading)
        val dip = List(29) { 986.0 } + List(2) { 883.0 } + List(568) { 986.0 }
        assertThat(WindowClassifier.classify(dip, excursion = 0.0).shape).isEqualTo(WindowShape.WARMING)
    }

    @Test
    fun `a dip of one answer at a few answers a second is the count's own step, a held one is a change`() {
        // WebFlux's four event loops sleeping 0.5 s each: 8 answers a second, and a second or two of 7 where the
        // seconds' edges cut the answers differently (two lab repetitions, both flagged warming before the floor)
        val eventLoop = List(20) { 8.0 } + listOf(7.0, 7.0) + List(8) { 8.0 }
        assertThat(WindowClassifier.classify(eventLoop).shape).isEqualTo(WindowShape.FLAT)
        assertThat(WindowClassifier.classify(List(20) { 8.0 } + 7.0 + List(9) { 8.0 }).shape).isEqualTo(WindowShape.FLAT)
        // one answer a second fewer, held for the last 12 of 30 seconds, is a level the series shows
        val slower = List(18) { 8.0 } + List(12) { 7.0 }
        assertThat(WindowClassifier.classify(slower).shape).isEqualTo(WindowShape.SLOWING)
    }

    @Test
    fun `a constant series is flat from the start`() {
        val c = WindowClassifier.classify(List(30) { 2000.0 })
        assertThat(c).isEqualTo(
            WindowClass(WindowShape.FLAT, listOf(Changepoints.Segment(0, 30, 2000.0)), 0, "1 segment: 2,000 req/s over all 30 s: flat, steady from second 0"),
        )
    }

    @Test
    fun `fewer than four points cannot show a steady state`() {
        for (xs in listOf(emptyList(), listOf(2000.0), listOf(2000.0, 2010.0, 1990.0))) {
            val c = WindowClassifier.classify(xs)
            assertThat(c.shape).isEqualTo(WindowShape.NO_STEADY_STATE)
            assertThat(c.steadyFrom).isNull()
            assertThat(c.reason).isEqualTo("${xs.size} s: too few points to show a steady state (need 4)")
        }
        assertThat(WindowClassifier.classify(listOf(2000.0, 2010.0, 1990.0)).segments)
            .containsExactly(Changepoints.Segment(0, 3, 2000.0))
        assertThat(WindowClassifier.classify(List(4) { 2000.0 }).shape).isEqualTo(WindowShape.FLAT)
    }

    companion object {
        private val table = listOf(
            Case("flat, 2 % noise", { Series(it, 0.02).hold(2000.0, 60).build() }, WindowShape.FLAT, 0),
            Case("flat, 5 % noise", { Series(it, 0.05).hold(2000.0, 60).build() }, WindowShape.FLAT, 0),
            Case(
                "flat for 10 minutes with a 3 s dip to 80 %, 2 % noise",
                { Series(it, 0.02).hold(1000.0, 200).hold(800.0, 3).hold(1000.0, 397).build() },
                WindowShape.FLAT, 0,
            ),
            Case("step up at a third", { Series(it, 0.02).hold(1300.0, 20).hold(2400.0, 40).build() }, WindowShape.WARMING, 20, 1),
            Case("step down at a third", { Series(it, 0.02).hold(2400.0, 20).hold(1800.0, 40).build() }, WindowShape.SLOWING, 20, 1),
            Case("step up in the last 10 %", { Series(it, 0.02).hold(2000.0, 54).hold(2600.0, 6).build() }, WindowShape.NO_STEADY_STATE, null),
            Case("step down in the last 10 %", { Series(it, 0.02).hold(2000.0, 54).hold(1400.0, 6).build() }, WindowShape.NO_STEADY_STATE, null),
            Case(
                "JIT plateaus 1300, 2300, 2400, 4800",
                { Series(it, 0.02).hold(1300.0, 15).hold(2300.0, 15).hold(2400.0, 15).hold(4800.0, 30).build() },
                WindowShape.WARMING, 45, 1,
            ),
            Case(
                "linear ramp for 20 s, then flat, 1 % noise",
                { Series(it, 0.01).ramp(1000.0, 2000.0, 20).hold(2000.0, 40).build() },
                WindowShape.WARMING, 20, 2,
            ),
            // with 2 % noise the ramp's last seconds (1,900 and 1,950 req/s) are within the noise, and from
            // second 19 within the 5 % equivalence, of the 2,000 req/s plateau: steady from there
            Case(
                "linear ramp for 20 s, then flat, 2 % noise",
                { Series(it, 0.02).ramp(1000.0, 2000.0, 20).hold(2000.0, 40).build() },
                WindowShape.WARMING, 19, 2,
            ),
        )

        @JvmStatic
        fun cases(): List<Arguments> = table.flatMap { case -> (1L..5L).map { seed -> Arguments.of(Named.of(case.name, case), seed) } }
    }
}
