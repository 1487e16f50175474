package stackbench.runner.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.util.Locale
import java.util.Random
import kotlin.math.abs
import kotlin.math.exp
import kotlin.math.sqrt

/**
 * The engine's known truth at the band's edges (issue 54): simulated comparisons whose true ratio a ÷ b is known,
 * decided the way the lab decides them ([Decisions.processes] for independent processes, [Decisions.paired] keyed by
 * process id for two sides measured by one JVM, [Look] for `--until-decided`), at true ratios 0.80, 0.90, 1.00, 1.10
 * and 1.20 against the band ±10 %. At 0.90 and 1.10 (the band's edges) neither "the same" nor "higher"/"lower" is
 * right: only "cannot tell" is. At 1.00 only "the same" is right; at 1.20 only "higher", at 0.80 only "lower".
 *
 * The noise is [ProcessLevelKnownTruthTest]'s: each process settles at level · e^(σb·Z), σb drawn per run from 5-13 %,
 * and each of its [WINDOWS] windows is that · e^(σw·Z), σw from 1.5-2 %. Designs:
 * - independent: n processes a side, each its own JVM;
 * - unequal spreads: a's processes spread 3× b's (a: σb from 5-13 %, b: a third of it);
 * - shared JVM: process i measures both sides (a shared level e^(σb·Z) that cancels in the ratio, and no effect of the
 *   process on one side alone), decided paired by process id, and the same data decided wrongly, as if the sides were
 *   independent processes;
 * - exclusions: each run leaves out a fraction of windows drawn from 30-70 %, each window at random; a process with no
 *   window left drops out (and, paired, its pair);
 * - sequential: 3 processes a side, one more a side per look, K = 4 looks at [Look] (k, 4)'s confidence, stopping at
 *   the first decided look; the interval counted for coverage is the one of the look it stopped at.
 *
 * Every design's runs come from `java.util.Random(SEED · 1000 + the design's index)`, the same draws at every true
 * ratio, so a row differs from the next only by the ratio (and a single look's coverage is the same at every ratio).
 * The table is printed (Markdown) for CI's log. Asserted for every design the lab decides with, at every ratio: false
 * higher/lower and false "the same" at most 5 % + 3 Monte-Carlo standard errors, and the interval's coverage at least
 * 95 % − 3 (sequential: the interval of the look it stopped at).
 */
class EngineKnownTruthTest {
    private enum class Replication { INDEPENDENT, UNEQUAL, SHARED }
    private enum class Method { PROCESSES, PAIRED }

    private class Design(
        val name: String,
        val unit: Replication,
        val method: Method,
        val n: Int,
        val exclude: Boolean = false,
        val sequential: Boolean = false,
        /** A design the lab decides with: its rates are asserted. False: measured to show a misuse. */
        val engine: Boolean = true,
    ) {
        val processes: Int get() = if (sequential) FIRST + LOOKS - 1 else n
    }

    /** One run: each side's windows by process; with [Replication.SHARED], process i of a and of b is one JVM. */
    private class Sample(val a: List<List<Double>>, val b: List<List<Double>>)

    private class Outcome(val relation: Relation, val low: Double?, val high: Double?)

    private class Row(
        val design: Design, val ratio: Double, val runs: Int,
        val falseDirection: Double, val falseSame: Double?, val correct: Double?, val undecided: Double,
        val covered: Int, val withInterval: Int,
    ) {
        val coverage: Double get() = covered.toDouble() / withInterval
    }

    private companion object {
        const val SEED = 54L
        const val RUNS = 4000
        const val WINDOWS = 3
        const val BAND = 0.10
        const val ALPHA = 0.05
        const val FIRST = 3
        const val LOOKS = 4
        val RATIOS = listOf(0.80, 0.90, 1.00, 1.10, 1.20)

        /** One Monte-Carlo standard error of a rate of 5 % over [RUNS] runs: 0.34 %. */
        val SE = sqrt(ALPHA * (1 - ALPHA) / RUNS)
        val RATE_BOUND = ALPHA + 3 * SE

        private val DESIGNS = listOf(
            Design("independent, 2 a side", Replication.INDEPENDENT, Method.PROCESSES, 2),
            Design("independent, 3 a side", Replication.INDEPENDENT, Method.PROCESSES, 3),
            Design("independent, 5 a side", Replication.INDEPENDENT, Method.PROCESSES, 5),
            Design("unequal spreads (a 3× b), 2 a side", Replication.UNEQUAL, Method.PROCESSES, 2),
            Design("unequal spreads (a 3× b), 3 a side", Replication.UNEQUAL, Method.PROCESSES, 3),
            Design("unequal spreads (a 3× b), 5 a side", Replication.UNEQUAL, Method.PROCESSES, 5),
            Design("shared JVM, paired, 2 processes", Replication.SHARED, Method.PAIRED, 2),
            Design("shared JVM, paired, 3 processes", Replication.SHARED, Method.PAIRED, 3),
            Design("shared JVM, paired, 5 processes", Replication.SHARED, Method.PAIRED, 5),
            Design("shared JVM taken as independent, 3", Replication.SHARED, Method.PROCESSES, 3, engine = false),
            Design("shared JVM taken as independent, 5", Replication.SHARED, Method.PROCESSES, 5, engine = false),
            Design("independent, 3 a side, 30-70 % excluded", Replication.INDEPENDENT, Method.PROCESSES, 3, exclude = true),
            Design("independent, 5 a side, 30-70 % excluded", Replication.INDEPENDENT, Method.PROCESSES, 5, exclude = true),
            Design("shared JVM, paired, 5, 30-70 % excluded", Replication.SHARED, Method.PAIRED, 5, exclude = true),
            Design("sequential, independent, 3→6 a side, K = 4", Replication.INDEPENDENT, Method.PROCESSES, FIRST, sequential = true),
            Design("sequential, shared JVM paired, 3→6, K = 4", Replication.SHARED, Method.PAIRED, FIRST, sequential = true),
        )

        /**
         * Designs the lab must refuse: they break a rate ([broken]) and are asserted to break it, never given a looser
         * bound, and printed as known failures. Each goes in with a `// refused:` comment saying which rate and by how
         * much. None so far: at seed 54 every design the lab decides with keeps its rates, n = 2 with unequal spreads
         * included (Welch's degrees of freedom, 1 to 2 there, widen its interval enough).
         */
        private val REFUSED = emptySet<String>()

        private val rows: List<Row> by lazy {
            val started = System.nanoTime()
            val measured = DESIGNS.flatMapIndexed { i, design -> RATIOS.map { measure(design, it, SEED * 1000 + i) } }
            println(table(measured))
            println()
            failures(measured).ifEmpty { listOf("no design breaks a rate") }.forEach { println(it) }
            println(misuse(measured))
            println("measured in ${"%.1f".format(Locale.ROOT, (System.nanoTime() - started) / 1e9)} s")
            measured
        }

        private fun simulate(design: Design, ratio: Double, seed: Long): List<Sample> {
            val rng = Random(seed)
            return List(RUNS) {
                val between = 0.05 + 0.08 * rng.nextDouble()
                val within = 0.015 + 0.005 * rng.nextDouble()
                val excluded = if (design.exclude) 0.3 + 0.4 * rng.nextDouble() else 0.0
                fun windows(settled: Double) = List(WINDOWS) { settled * exp(within * rng.nextGaussian()) }
                    .filter { excluded == 0.0 || rng.nextDouble() >= excluded }
                when (design.unit) {
                    Replication.INDEPENDENT, Replication.UNEQUAL -> {
                        val spreadB = if (design.unit == Replication.UNEQUAL) between / 3 else between
                        val a = List(design.processes) { windows(1000.0 * ratio * exp(between * rng.nextGaussian())) }
                        val b = List(design.processes) { windows(1000.0 * exp(spreadB * rng.nextGaussian())) }
                        Sample(a, b)
                    }
                    Replication.SHARED -> {
                        val levels = List(design.processes) { exp(between * rng.nextGaussian()) }
                        Sample(levels.map { windows(1000.0 * ratio * it) }, levels.map { windows(1000.0 * it) })
                    }
                }
            }
        }

        private fun byProcess(side: List<List<Double>>) = side.mapIndexed { i, w -> "p${i + 1}" to w }.toMap()

        private fun decide(design: Design, s: Sample, n: Int, look: Look): RatioDecision = when (design.method) {
            Method.PROCESSES -> Decisions.processes(s.a.take(n), s.b.take(n), BAND, look)
            Method.PAIRED -> Decisions.paired(byProcess(s.a.take(n)), byProcess(s.b.take(n)), BAND, look)
        }

        private fun outcome(design: Design, s: Sample): Outcome {
            if (!design.sequential) return decide(design, s, design.n, Look.SINGLE).let { Outcome(it.relation, it.low, it.high) }
            var d: RatioDecision? = null
            for (k in 1..LOOKS) {
                d = decide(design, s, FIRST + k - 1, Look(k, LOOKS))
                if (d.decided) break
            }
            return Outcome(d!!.relation, d.low, d.high)
        }

        private fun near(x: Double, y: Double) = abs(x - y) < 1e-9

        /** The direction a true ratio lies beyond the band in, or null when it is not beyond it (its edges included). */
        private fun beyond(ratio: Double): Relation? = when {
            ratio > 1 + BAND && !near(ratio, 1 + BAND) -> Relation.HIGHER
            ratio < 1 - BAND && !near(ratio, 1 - BAND) -> Relation.LOWER
            else -> null
        }

        private fun inside(ratio: Double) = ratio > 1 - BAND && ratio < 1 + BAND && !near(ratio, 1 - BAND) && !near(ratio, 1 + BAND)

        private fun measure(design: Design, ratio: Double, seed: Long): Row {
            val outcomes = simulate(design, ratio, seed).map { outcome(design, it) }
            val direction = beyond(ratio)
            fun rate(event: (Outcome) -> Boolean) = outcomes.count(event).toDouble() / outcomes.size
            val falseDirection = rate { (it.relation == Relation.HIGHER || it.relation == Relation.LOWER) && it.relation != direction }
            val falseSame = if (inside(ratio)) null else rate { it.relation == Relation.SAME }
            val correct = when {
                direction != null -> rate { it.relation == direction }
                inside(ratio) -> rate { it.relation == Relation.SAME }
                else -> null // at an edge no decision is right: only "cannot tell"
            }
            val undecided = rate { it.relation == Relation.UNDECIDED }
            val intervals = outcomes.filter { it.low != null && it.high != null }
            val covered = intervals.count { it.low!! <= ratio && ratio <= it.high!! }
            return Row(design, ratio, outcomes.size, falseDirection, falseSame, correct, undecided, covered, intervals.size)
        }

        /** The lowest coverage of a 95 % interval that [m] runs allow by chance: 95 % − 3 Monte-Carlo standard errors. */
        private fun coverageBound(m: Int) = (1 - ALPHA) - 3 * sqrt(ALPHA * (1 - ALPHA) / m)

        /**
         * Each rate a row breaks, in words: false higher/lower or false "the same" above [RATE_BOUND], coverage below its
         * bound (sequential: the interval of the look it stopped at, each look's at or above 97.36 %).
         */
        private fun broken(row: Row): List<String> = buildList {
            if (row.falseDirection > RATE_BOUND) add("false higher/lower ${pct(row.falseDirection)} % > ${pct(RATE_BOUND)} %")
            if (row.falseSame != null && row.falseSame > RATE_BOUND) add("false same ${pct(row.falseSame)} % > ${pct(RATE_BOUND)} %")
            if (row.withInterval > 0 && row.coverage < coverageBound(row.withInterval)) {
                add("coverage ${pct(row.coverage)} % < ${pct(coverageBound(row.withInterval))} %")
            }
        }

        private fun failures(rows: List<Row>): List<String> = rows.filter { broken(it).isNotEmpty() }.map {
            val known = if (it.design.name in REFUSED) "known failure (refused)" else "FAILS"
            "$known: ${it.design.name} at ${"%.2f".format(Locale.ROOT, it.ratio)}: ${broken(it).joinToString("; ")}"
        }

        /** The shared-JVM data decided as if its sides were independent processes, against the same data paired. */
        private fun pairs(rows: List<Row>) = listOf(3, 5).map { n ->
            fun at(method: Method, ratio: Double) = rows.single {
                it.design.unit == Replication.SHARED && it.design.method == method && it.design.n == n && !it.design.exclude &&
                    !it.design.sequential && near(it.ratio, ratio)
            }
            Triple(n, RATIOS.map { at(Method.PROCESSES, it) }, RATIOS.map { at(Method.PAIRED, it) })
        }

        private fun misuse(rows: List<Row>): String = pairs(rows).joinToString("\n") { (n, wrong, paired) ->
            "shared JVM, $n processes, taken as independent: coverage ${span(wrong.map { it.coverage })} % (paired ${span(paired.map { it.coverage })} %), " +
                "false higher/lower at most ${pct(wrong.maxOf { it.falseDirection })} %, false same at most ${pct(wrong.mapNotNull { it.falseSame }.max())} %: " +
                "over-wide, too conservative; correct at 0.80/1.00/1.20 " +
                listOf(0, 2, 4).joinToString("/") { pct(wrong[it].correct!!) } + " % against paired " +
                listOf(0, 2, 4).joinToString("/") { pct(paired[it].correct!!) } + " %"
        }

        private fun span(x: List<Double>) = pct(x.min()).let { low -> if (low == pct(x.max())) low else "$low-${pct(x.max())}" }

        private fun table(rows: List<Row>): String = buildString {
            appendLine("Engine known truth: seed $SEED, $RUNS runs a cell, band ±${pct(BAND)} %, $WINDOWS windows a process; " +
                "Monte-Carlo s.e. of a 5 % rate ${"%.2f".format(Locale.ROOT, 100 * SE)} % (bound ${pct(RATE_BOUND)} %), " +
                "of 95 % coverage the same (bound ${pct(coverageBound(RUNS))} %)")
            appendLine()
            appendLine("| design | true ratio | runs | false higher/lower % | false same % | correct % | undecided % | coverage % |")
            appendLine("|---|---|---|---|---|---|---|---|")
            for (r in rows) {
                val coverage = if (r.withInterval == 0) "–" else pct(r.coverage) + (if (r.withInterval < r.runs) " (of ${r.withInterval})" else "")
                appendLine("| ${r.design.name} | ${"%.2f".format(Locale.ROOT, r.ratio)} | ${r.runs} | ${pct(r.falseDirection)} | " +
                    "${r.falseSame?.let { pct(it) } ?: "–"} | ${r.correct?.let { pct(it) } ?: "–"} | ${pct(r.undecided)} | $coverage |")
            }
        }.trimEnd()

        private fun pct(x: Double) = "%.1f".format(Locale.ROOT, 100 * x)
    }

    @Test
    fun `the designs the lab decides with keep false higher-lower and false same under 5 %, and 95 % coverage`() {
        val kept = rows.filter { it.design.engine && it.design.name !in REFUSED }
        assertThat(kept.filter { broken(it).isNotEmpty() }.map { "${it.design.name} at ${it.ratio}: ${broken(it)}" }).isEmpty()
        for (name in REFUSED) {
            assertThat(rows.filter { it.design.name == name }.flatMap { broken(it) }).describedAs("refused: $name").isNotEmpty()
        }
    }

    @Test
    fun `shared-JVM data taken as independent is over-wide, too conservative, and decides far less than paired`() {
        for ((n, wrong, paired) in pairs(rows)) {
            // the shared level counts as noise on both sides, though it cancels in each process's ratio
            for (r in wrong) assertThat(r.coverage).describedAs("coverage, $n, ${r.ratio}").isGreaterThan((1 - ALPHA) + 3 * SE)
            assertThat(wrong.maxOf { it.falseDirection }).isLessThanOrEqualTo(RATE_BOUND)
            for (i in listOf(0, 2, 4)) {
                assertThat(wrong[i].correct!!).describedAs("correct, $n, ${wrong[i].ratio}").isLessThan(paired[i].correct!! - 0.3)
            }
        }
    }
}
