package stackbench.runner.report

import stackbench.runner.stats.Change
import stackbench.runner.stats.Statistics
import stackbench.runner.stats.Verdict

/** The best configuration at one swept value by one figure, and by how much it beats the next. */
data class Finding(
    val metric: Metric,
    val best: String,
    val bestValue: Double,
    val next: String?,
    val nextValue: Double?,
    /** throughput: best / next - 1; p99: 1 - best / next (how much lower). */
    val margin: Double?,
    /** Whether the repetitions support the difference; null with no next. */
    val change: Change?,
    /** Flags on the best configuration that qualify this figure. */
    val caveats: List<String>,
    val noisy: Boolean,
)

enum class Metric { THROUGHPUT, P99 }

/** What the report says about one group: best by throughput and by p99, and what failed there. */
data class GroupFindings(val group: Group, val throughput: Finding?, val p99: Finding?, val failed: List<String>)

/** "What this run shows", computed from the data: nothing here is written by hand. */
object Findings {
    fun of(view: RunView): List<GroupFindings> = view.groups.map { g ->
        val label = { c: Config -> g.panel.label(SeriesKey(c.app, c.strategy)) }
        GroupFindings(
            g,
            best(g.configs, Metric.THROUGHPUT, label),
            best(g.configs, Metric.P99, label),
            g.configs.filter { it.failed.isNotEmpty() }.map { c -> "${label(c)} (${c.failed.size} of ${c.cells.size} failed: ${c.failed.first().reason ?: c.failed.first().status.name.lowercase()})" },
        )
    }

    private fun best(configs: List<Config>, metric: Metric, label: (Config) -> String): Finding? {
        val figure = { c: Config -> if (metric == Metric.THROUGHPUT) c.throughput else c.p99 }
        val ranked = configs.filter { figure(it) != null }.sortedBy { c -> figure(c)!!.median.let { if (metric == Metric.THROUGHPUT) -it else it } }
        val best = ranked.firstOrNull() ?: return null
        val next = ranked.getOrNull(1)
        val b = figure(best)!!
        val n = next?.let(figure)
        val affects = if (metric == Metric.THROUGHPUT) "throughput" else "latency"
        val caveats = best.flags.filter { it.affects == affects && it.code != "closed-model" }.map { f ->
            val flagged = best.cells.filter { c -> c.flags.any { it.code == f.code } || (f.code == "verify-failed" && c.verification?.ok == false) }
            val where = if (best.cells.size == 1) "" else " in ${flagged.size} of ${best.cells.size} repetitions"
            "it is flagged ${f.code}$where (${f.message.substringBefore(" / ")})"
        }
        if (n == null) return Finding(metric, label(best), b.median, null, null, null, null, caveats, b.noisy)
        val (margin, change) = if (metric == Metric.THROUGHPUT) {
            (if (n.median == 0.0) null else b.median / n.median - 1) to Statistics.change(n.values, b.values)
        } else {
            (if (n.median == 0.0) null else 1 - b.median / n.median) to Statistics.change(b.values, n.values)
        }
        return Finding(metric, label(best), b.median, label(next), n.median, margin, change, caveats, b.noisy || n.noisy)
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
        return "$head, $margin ${name(f.next)} ($other); ${verdict(f.change!!)}." + tail(f, plain)
    }

    private fun tail(f: Finding, plain: (String) -> String): String =
        (if (f.noisy) " The repetitions spread more than ${Format.percent(Statistics.NOISY_SPREAD)}: noisy." else "") +
            f.caveats.joinToString("") { " But ${plain(it)}." }

    fun verdict(c: Change): String = when (c.verdict) {
        Verdict.CANNOT_TELL -> if (minOf(c.before.n, c.after.n) == 1) "a single repetition cannot tell whether the difference is real"
            else "with ${minOf(c.before.n, c.after.n)} repetitions (fewer than ${Statistics.MIN_FOR_INTERVAL}) the run cannot tell whether the difference is real"
        Verdict.NO_CHANGE -> "the repetitions cannot tell the two apart (Mann-Whitney p = ${Format.p(c.pValue)})"
        Verdict.BETTER, Verdict.WORSE -> "the repetitions support the difference (Mann-Whitney p = ${Format.p(c.pValue)}, and the bootstrap interval of the change excludes zero)"
    }
}
