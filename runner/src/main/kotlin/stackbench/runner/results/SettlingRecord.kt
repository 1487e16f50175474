package stackbench.runner.results

import stackbench.runner.stats.SettlingClassifier
import stackbench.runner.stats.SettlingKind
import java.util.Locale
import kotlin.math.abs

/**
 * How the app's throughput went over a cell's warm-up ([Settlings.of]): its [kind] (`settled`, `rising`, `falling`,
 * `oscillating`, as [SettlingKind]) and the figure of that kind: [afterSeconds] for a settled one, the drift
 * [perMinute] (a share of the level a minute, signed) with its 95 % interval [[low], [high]] for a rising or falling
 * one, the [scatter] (standard deviation over mean) for an oscillating one; read over [slices] slices; [text] says it
 * in a sentence with its figures.
 */
data class SettlingRecord(
    val kind: String,
    val afterSeconds: Double? = null,
    val perMinute: Double? = null,
    val low: Double? = null,
    val high: Double? = null,
    val scatter: Double? = null,
    val slices: Int? = null,
    val text: String,
    /** For a rising or falling one: its stretch's first and last three slices' medians (req/s); null in records before them. */
    val fromRate: Double? = null,
    val toRate: Double? = null,
) {
    /** A few words for a table: `settled after 12 s`, `falling 38 %/min`, `rising 12 %/min`, `oscillating ±21 %`. */
    fun label(): String = when (kind) {
        SettlingKind.SETTLED.id -> "settled after ${"%.0f".format(Locale.ROOT, afterSeconds ?: 0.0)} s"
        SettlingKind.RISING.id, SettlingKind.FALLING.id -> "$kind ${pct(perMinute)} %/min"
        SettlingKind.OSCILLATING.id -> "oscillating ±${pct(scatter)} %"
        else -> kind
    }

    val falls: Boolean get() = kind == SettlingKind.FALLING.id

    private fun pct(x: Double?) = "%.0f".format(Locale.ROOT, abs(x ?: 0.0) * 100)
}

/**
 * A process that never settles is a result, not only a flag: each cell's warm-up classed from its series. Pure.
 */
object Settlings {
    /**
     * The class of [warmup]: a warm-up that the lab ended as steady (by any of its rules) settled where its steady state
     * began; one that reached its cap (steady at it or not) is classed from its slices ([SettlingClassifier]); null
     * when those are too few to class.
     */
    fun of(warmup: WarmupRecord): SettlingRecord? {
        if (warmup.endedBy != "cap" && warmup.endedBy != "flat-at-cap") {
            val after = warmup.steadyAfterSeconds ?: warmup.seconds
            return SettlingRecord(SettlingKind.SETTLED.id, afterSeconds = after, slices = warmup.slices.size,
                text = "settled after ${"%.0f".format(Locale.ROOT, after)} s: the warm-up ended ${warmup.endedBy} after ${"%.0f".format(Locale.ROOT, warmup.seconds)} s")
        }
        val c = SettlingClassifier.classify(warmup.slices.map { it.endSeconds }, warmup.slices.map { it.rate }) ?: return null
        return SettlingRecord(
            kind = c.kind.id,
            afterSeconds = c.fromSeconds.takeIf { c.kind == SettlingKind.SETTLED },
            perMinute = c.drift.perMinute, low = c.drift.low, high = c.drift.high,
            scatter = c.scatter, slices = c.drift.points, text = c.text,
            fromRate = c.startRate.takeIf { c.kind == SettlingKind.RISING || c.kind == SettlingKind.FALLING },
            toRate = c.endRate.takeIf { c.kind == SettlingKind.RISING || c.kind == SettlingKind.FALLING },
        )
    }

    /** [cell]'s recorded class, or, for a record made before classes were, its warm-up's classed now. */
    fun of(cell: CellResult): SettlingRecord? = cell.warmup.settling ?: cell.warmup.record?.let(::of)

    /**
     * Each process of [cells] (one configuration's) with its class: that of its last cell with one, where the
     * process has been longest under that load.
     */
    fun byProcess(cells: List<CellResult>): List<Pair<String, SettlingRecord>> =
        cells.groupBy { Processes.of(it) }.mapNotNull { (process, group) -> group.mapNotNull(::of).lastOrNull()?.let { process to it } }

    /**
     * Each process of [cells] with its class in a few words, `p1 settled after 12 s; p2 falling 38 %/min`, for the
     * views that compare runs (`compare`, `gate`); null when none is classed.
     */
    fun perProcess(cells: List<CellResult>): String? = byProcess(cells).takeIf { it.isNotEmpty() }
        ?.joinToString("; ") { (process, s) -> "${process.substringBefore('@')} ${s.label()}" }

    /**
     * What a configuration whose processes fall says in the terminal and the report: how many of its processes fall, at
     * what rate; null when none does.
     */
    fun fallingNote(cells: List<CellResult>): String? {
        val classes = byProcess(cells)
        val falling = classes.map { it.second }.filter { it.falls }
        if (falling.isEmpty()) return null
        val rates = falling.map { abs(it.perMinute ?: 0.0) * 100 }
        val range = if (rates.size == 1) "%.0f".format(Locale.ROOT, rates[0]) else "%.0f-%.0f".format(Locale.ROOT, rates.min(), rates.max())
        val of = if (classes.size == 1) "its process falls" else "${falling.size} of ${classes.size} processes fall"
        // where each fall ended, as a share of where it began: a fall faster than the level a minute reads plainly so
        val ends = falling.mapNotNull { f -> f.fromRate?.takeIf { it > 0 }?.let { from -> (f.toRate ?: return@mapNotNull null) / from * 100 } }
        val ended = if (ends.size != falling.size) "" else if (ends.size == 1) ", ending at %.0f %% of the rate it fell from".format(Locale.ROOT, ends[0])
            else ", each ending at %.0f-%.0f %% of the rate it fell from".format(Locale.ROOT, ends.min(), ends.max())
        return "$of through the warm-up, losing $range % of the level a minute$ended: the app slows as it runs"
    }
}
