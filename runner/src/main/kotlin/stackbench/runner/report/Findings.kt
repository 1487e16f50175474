package stackbench.runner.report

import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.Format
import stackbench.runner.stats.Statistics

/**
 * The best configuration at one swept value by one figure, the next one, and what the decision engine decided about
 * the two: the suite's comparison of that pair on that figure ([decision]), or none when the suite compares none.
 */
data class Finding(
    val metric: Metric,
    val best: String,
    val bestValue: Double,
    val next: String?,
    val nextValue: Double?,
    /** throughput: best / next - 1; p99: 1 - best / next (how much lower). Descriptive: medians of the windows that count. */
    val margin: Double?,
    /** The suite's comparison of best against next (either way round) on this figure, as the engine decided it; null when there is none. */
    val decision: DecisionRecord?,
    /** Flags on the best configuration that qualify this figure. */
    val caveats: List<String>,
    val noisy: Boolean,
)

enum class Metric(val figure: String) { THROUGHPUT("throughput"), P99("p99") }

/** What the report says about one group: best by throughput and by p99, and what failed there. */
data class GroupFindings(val group: Group, val throughput: Finding?, val p99: Finding?, val failed: List<String>)

/**
 * "What this run shows", computed from the data: at each swept value the best configuration and the next, described
 * (medians of the windows that count), and whether they differ only as the decision engine decided it in the run's
 * record (the suite's comparisons): no view computes a statistic or a verdict of its own.
 */
object Findings {
    fun of(view: RunView): List<GroupFindings> = view.groups.map { g ->
        val label = { c: Config -> g.panel.label(SeriesKey(c.app, c.strategy)) }
        GroupFindings(
            g,
            best(view, g.configs, Metric.THROUGHPUT, label),
            best(view, g.configs, Metric.P99, label),
            g.configs.filter { it.failed.isNotEmpty() }.map { c -> "${label(c)} (${c.failed.size} of ${c.cells.size} failed: ${c.failed.first().reason ?: c.failed.first().status.name.lowercase()})" },
        )
    }

    private fun best(view: RunView, configs: List<Config>, metric: Metric, label: (Config) -> String): Finding? {
        val figure = { c: Config -> if (metric == Metric.THROUGHPUT) c.throughput else c.p99 }
        val ranked = configs.filter { figure(it) != null }.sortedBy { c -> figure(c)!!.median.let { if (metric == Metric.THROUGHPUT) -it else it } }
        val best = ranked.firstOrNull() ?: return null
        val next = ranked.getOrNull(1)
        val b = figure(best)!!
        val n = next?.let(figure)
        val affects = if (metric == Metric.THROUGHPUT) "throughput" else "latency"
        val caveats = best.flags.filter { it.affects == affects && it.code != "closed-model" }.map { f ->
            val flagged = best.cells.filter { c -> c.flags.any { it.code == f.code } || (f.code == "verify-failed" && c.verification?.ok == false) }
            val where = if (best.cells.size == 1) "" else " in ${flagged.size} of ${best.cells.size} windows"
            "it is flagged ${f.code}$where (${f.message.substringBefore(" / ")})"
        }
        if (n == null) return Finding(metric, label(best), b.median, null, null, null, null, caveats, b.noisy)
        val margin = when {
            n.median == 0.0 -> null
            metric == Metric.THROUGHPUT -> b.median / n.median - 1
            else -> 1 - b.median / n.median
        }
        val decision = view.result.decisions.firstOrNull { d ->
            d.figure == metric.figure && setOf(d.a, d.b) == setOf(best.key, next.key)
        }
        return Finding(metric, label(best), b.median, label(next), n.median, margin, decision, caveats, b.noisy || n.noisy)
    }

    /** One sentence; [name] marks up a configuration's name, [plain] escapes everything else taken from results. */
    fun sentence(f: Finding, name: (String) -> String, plain: (String) -> String): String {
        val throughput = f.metric == Metric.THROUGHPUT
        val value = if (throughput) "${Format.rate(f.bestValue)} req/s" else "${Format.ms(f.bestValue)} ms"
        val head = if (throughput) "${name(f.best)} served the most: $value" else "${name(f.best)} had the lowest p99: $value"
        if (f.next == null) return "$head (the only configuration measured here)." + tail(f, plain)
        val other = if (throughput) "${Format.rate(f.nextValue)} req/s" else "${Format.ms(f.nextValue)} ms"
        val margin = f.margin?.let { m ->
            if (Math.abs(m) < 0.0005) "level with" else Format.change(m).removePrefix("+") + if (throughput) " more than" else " lower than"
        } ?: "against"
        return "$head, $margin ${name(f.next)} ($other); ${verdict(f, plain)}." + tail(f, plain)
    }

    /** What the engine decided of the two, in its words ([Decided]), or that the suite compares them on no comparison. */
    private fun verdict(f: Finding, plain: (String) -> String): String {
        val d = f.decision ?: return "no comparison of the suite sets these two side by side, so the run decides nothing about them " +
            "(a suite's compare: decides a pair over its app processes)"
        return "the suite's comparison ${plain(d.name)} decided ${plain(d.a)} ÷ ${plain(d.b)} = ${Decided.ratio(d)}${Decided.interval(d)}: " +
            "${Decided.verdict(d, plain)} (${Decided.basis(d)})"
    }

    private fun tail(f: Finding, plain: (String) -> String): String =
        (if (f.noisy) " Its windows spread more than ${Format.percent(Statistics.NOISY_SPREAD)}: noisy." else "") +
            f.caveats.joinToString("") { " But ${plain(it)}." }
}
