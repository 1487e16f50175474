package stackbench.runner.report

import stackbench.runner.results.Efficiency
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Flag
import stackbench.runner.results.Format
import stackbench.runner.results.RunResult
import stackbench.runner.stats.Estimate
import stackbench.runner.stats.Statistics

/** One configuration: the cells sharing a configKey, i.e. its repetitions; figures are medians over them. */
class Config(val key: String, val cells: List<CellResult>) {
    val first: CellResult = cells.first()
    val app: String get() = first.app.name
    val strategy: String? get() = first.endpoint.strategy
    val ok: List<CellResult> = cells.filter { it.status == CellStatus.OK && it.window.measured != null }
    val failed: List<CellResult> = cells.filter { it.status != CellStatus.OK }

    val throughput: Estimate? = estimate { it.window.measured?.throughput }
    val p50: Estimate? = estimate { it.window.measured?.latency?.p50 }
    val p99: Estimate? = estimate { it.window.measured?.latency?.p99 }
    val p999: Estimate? = estimate { it.window.measured?.latency?.p999 }

    /** Requests per CPU-second the app used, window by window ([Efficiency]). */
    val perCpuSecond: Estimate? = estimate(Efficiency::perCpuSecond)

    /** True when every measured repetition counted latency from the intended send time (open model). */
    val corrected: Boolean get() = ok.isNotEmpty() && ok.all { it.window.measured!!.latencyCorrected }

    fun estimate(figure: (CellResult) -> Double?): Estimate? =
        ok.mapNotNull(figure).filter { !it.isNaN() }.takeIf { it.isNotEmpty() }?.let { Statistics.estimate(it) }

    /** Every flag of every repetition, one per code, and a flag for answers that failed verification. */
    val flags: List<Flag>
        get() {
            val all = cells.flatMap { it.flags } + cells.mapNotNull { c ->
                c.verification?.takeIf { !it.ok }?.let { Flag("verify-failed", "the answer failed verification: ${it.problem ?: "status ${it.status}"}", "throughput") }
            }
            return all.groupBy { it.code }.map { (code, same) ->
                Flag(code, same.map { it.message }.distinct().joinToString(" / "), same.first().affects)
            }
        }
}

/** A swept quantity that can be a chart's x axis. */
class Dimension(val id: String, val name: String, val unit: String, val value: (CellResult) -> Double?) {
    val axisName: String get() = if (unit.isEmpty()) name else "$name, $unit"
    fun describe(v: Double): String = when (id) {
        "connections" -> "${Format.plain(v)} connections"
        "rate" -> "${Format.plain(v)} req/s offered"
        else -> "$name ${Format.plain(v)}${if (unit.isEmpty()) "" else " $unit"}"
    }
}

/** A configuration's line in a panel: one per app configuration and strategy. */
data class SeriesKey(val app: String, val strategy: String?)

/** Cells of one endpoint kind and load model that differ only along [x] and by configuration: one chart. */
class Panel(val id: String, val title: String, val x: Dimension?, val series: List<SeriesKey>, val configs: List<Config>, val latencyKind: String) {
    val xValues: List<Double> get() = configs.mapNotNull { c -> x?.value(c.first) }.distinct().sorted()
    private val strategies get() = series.map { it.strategy }.distinct()
    fun label(s: SeriesKey): String = if (strategies.size > 1 && s.strategy != null) "${s.app} · ${s.strategy}" else s.app
    fun configsAt(v: Double?): List<Config> = configs.filter { x == null || x.value(it.first) == v }
    val groups: List<Group>
        get() = if (x == null) listOf(Group("$id-all", this, null, title, configs))
        else xValues.map { v -> Group("$id-${Html.slug(Format.plain(v))}", this, v, "$title · ${x.describe(v)}", configsAt(v)) }
}

/** The configurations at one value of a panel's swept parameter. */
class Group(val id: String, val panel: Panel, val x: Double?, val title: String, val configs: List<Config>)

/** What a run swept and how its cells group, computed once from results.json for every view of the report. */
class RunView(val result: RunResult) {
    val configs: List<Config> = result.cells.sortedBy { it.index }.groupBy { it.configKey }.map { (k, cells) -> Config(k, cells.sortedBy { it.repetition }) }
    val apps: List<String> = (configs.map { it.app } + result.searches.map { it.app }).distinct()
    val strategies: List<String?> = configs.map { it.strategy }.distinct()
    val repetitions: Int = configs.maxOfOrNull { it.cells.size } ?: 0

    /** "2 repetitions of each", or "1 to 2 repetitions" when configurations differ. */
    val repetitionsText: String get() {
        val least = configs.minOfOrNull { it.cells.size } ?: 0
        return if (least == repetitions) "${Format.plural(repetitions, "repetition")} of each" else "$least to $repetitions repetitions"
    }
    val panels: List<Panel> = panels()
    val groups: List<Group> get() = panels.flatMap { it.groups }

    fun style(app: String): Palette.Style = Palette.style(apps.indexOf(app).coerceAtLeast(0))
    fun dash(strategy: String?): String = Palette.dash(strategies.indexOf(strategy).coerceAtLeast(0))

    private fun dimensions(cells: List<CellResult>): List<Dimension> {
        val params = cells.flatMap { it.endpoint.params.keys }.distinct()
        return listOf(
            Dimension("connections", "connections", "") { c -> c.load.connections.toDouble().takeIf { c.load.model == "closed" } },
            Dimension("rate", "offered rate", "req/s") { it.load.rate },
        ) + params.map { p -> Dimension("param:$p", p, if (p == "delay") "ms" else "") { c -> c.endpoint.params[p]?.toDouble() } }
    }

    private fun panels(): List<Panel> {
        val families = configs.groupBy { it.first.endpoint.kind to it.first.load.model }
        return families.flatMap { (family, members) ->
            val cells = members.map { it.first }
            val dims = dimensions(cells)
            val swept = dims.filter { d -> cells.mapNotNull(d.value).distinct().size > 1 }
            val x = swept.firstOrNull { it.id == "connections" || it.id == "rate" }
                ?: swept.maxByOrNull { d -> cells.mapNotNull(d.value).distinct().size }
            val rest = dims.filter { it !== x }
            members.groupBy { c -> rest.map { it.value(c.first) } }.map { (values, inPanel) ->
                val parts = listOf(family.first) + rest.zip(values).mapNotNull { (d, v) -> v?.let { d.describe(it) } } + "${family.second} model"
                val title = parts.joinToString(" · ")
                val latency = if (inPanel.all { it.corrected }) "open-model latency (from intended send time)" else "closed-model latency"
                Panel("p-" + Html.slug(title), title, x, inPanel.map { SeriesKey(it.app, it.strategy) }.distinct(), inPanel, latency)
            }
        }.let { ps -> ps.mapIndexed { i, p -> if (ps.count { it.id == p.id } > 1) Panel("${p.id}-$i", p.title, p.x, p.series, p.configs, p.latencyKind) else p } }
    }
}
